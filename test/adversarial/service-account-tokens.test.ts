// Boundary (ADR 0028): ServiceAccount credentials. A tenant's ServiceAccount is
// a real host ServiceAccount, so a host-issued token for it is a HOST
// credential. Through the gateway:
//   - a token Secret the host filled is read without its token (get, list,
//     all-namespaces list, watch, Table), and a tenant cannot write one;
//   - `kubectl create token` gets a Warren token, valid at the gateway only,
//     as system:serviceaccount:<ns>:<name> under the tenant's RBAC, never as
//     another tenant, and dead once its ServiceAccount is deleted;
//   - a tenant ClusterRole's labels are stored where no host aggregationRule
//     selects them, and its aggregationRule selects only its own roles, while
//     the tenant's own aggregation keeps working in the gateway.
// The embedded host runs no token controller: the token Secret is planted on
// the host as the 1.20 token controller writes it (test/real/ checks the
// controller itself).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';

const HOST_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.planted-host-token.sig';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const RBAC = 'rbac.authorization.k8s.io';

interface KubeconfigDoc { users: Array<{ user: Record<string, string> }> }

describe('adversarial: ServiceAccount credentials and host RBAC', { timeout: 600_000 }, () => {
  const env = useAdversaryEnv('service-account-tokens');
  let acmeId = '';
  let token = '';
  /** A kubeconfig for the gateway with only a bearer token (kubectl would send the client certificate first). */
  const tokenKubeconfig = (name: string, bearer: string): string => {
    const doc = parse(readFileSync(env.kubeconfigPath('acme'), 'utf8')) as KubeconfigDoc;
    for (const u of doc.users) u.user = { token: bearer };
    return env.file(`${name}.kubeconfig`, stringify(doc));
  };
  const asBot = async (...args: string[]) => env.kubectlWith(tokenKubeconfig('bot', token), args);

  before(async () => {
    acmeId = env.idOf('acme');
    const acme = env.as('acme');
    await acme('create', 'namespace', 'bots');
    await acme('create', 'serviceaccount', 'bot', '-n', 'bots');
    token = (await acme('create', 'token', 'bot', '-n', 'bots')).trim();
  });

  it('kubectl create token: a Warren token for the ServiceAccount, bounded like kube (10 min floor, 24 h cap)', async () => {
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, any>;
    assert.equal(claims.sub, 'system:serviceaccount:bots:bot');
    assert.equal(claims['warren.dev/tenant'], acmeId);
    assert.equal(claims.exp - claims.iat, 3600, 'default 1 h');
    assert.equal(claims['kubernetes.io'].serviceaccount.name, 'bot');
    const short = await env.run('acme', 'create', 'token', 'bot', '-n', 'bots', '--duration=5m');
    assert.notEqual(short.code, 0);
    assert.match(short.stderr, /less than 10 minutes/);
    const long = (await env.as('acme')('create', 'token', 'bot', '-n', 'bots', '--duration=72h')).trim();
    const longClaims = JSON.parse(Buffer.from(long.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number };
    assert.equal(longClaims.exp - longClaims.iat, 24 * 3600, 'capped at a day');
    const missing = await env.run('acme', 'create', 'token', 'nobody', '-n', 'bots');
    assert.match(missing.stderr, /serviceaccounts "nobody" not found/);
  });

  it('the token acts as the ServiceAccount under the tenant\'s RBAC: nothing before a binding, view after it, nothing elsewhere', async () => {
    const denied = await asBot('get', 'pods', '-n', 'bots');
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /system:serviceaccount:bots:bot/);
    assert.equal(denied.stderr.includes(acmeId), false, 'the refusal is in tenant terms');
    await env.as('acme')('create', 'rolebinding', 'bot-view', '--clusterrole=view', '--serviceaccount=bots:bot', '-n', 'bots');
    await eventually(async () => (await asBot('get', 'pods', '-n', 'bots')).code === 0, 'the bot reads pods in bots', { timeoutMs: 30_000 });
    const elsewhere = await asBot('get', 'pods', '-n', 'default');
    assert.notEqual(elsewhere.code, 0, 'no grant outside bots');
    const secrets = await asBot('get', 'secrets', '-n', 'bots');
    assert.notEqual(secrets.code, 0, 'view does not read secrets');
  });

  it('the tenant\'s own aggregation works with mapped label keys: a role labelled aggregate-to-view joins its view', async () => {
    await env.apply('acme', `
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: secret-reader, labels: { ${RBAC}/aggregate-to-view: "true" } }
rules: [{ apiGroups: [""], resources: ["secrets"], verbs: ["get", "list"] }]
`, 'secret-reader.yaml');
    await eventually(async () => (await asBot('get', 'secrets', '-n', 'bots')).code === 0, 'view now reads secrets', { timeoutMs: 30_000 });
    const shown = await env.as('acme')('get', 'clusterrole', 'secret-reader', '-o', 'jsonpath={.metadata.labels}');
    assert.deepEqual(JSON.parse(shown), { [`${RBAC}/aggregate-to-view`]: 'true' }, 'the tenant sees its own key');
    const listed = await env.as('acme')('get', 'clusterroles', '-l', `${RBAC}/aggregate-to-view=true`, '-o', 'name');
    assert.match(listed, /clusterrole.rbac.authorization.k8s.io\/secret-reader/);
  });

  it('a tenant ClusterRole is stored where no host aggregationRule selects it, and its aggregationRule selects only its own roles', async () => {
    await env.apply('acme', `
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: evil, labels: { ${RBAC}/aggregate-to-admin: "true", ${RBAC}/aggregate-to-edit: "true", aggregate-to-view: "true" } }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: grab }
aggregationRule: { clusterRoleSelectors: [{ matchLabels: { ${RBAC}/aggregate-to-edit: "true" } }, { matchExpressions: [{ key: kubernetes.io/bootstrapping, operator: Exists }] }] }
rules: []
`, 'aggregation.yaml');
    const evil = await env.host().request<any>('GET', `/apis/${RBAC}/v1/clusterroles/${acmeId}-evil`);
    assert.equal(evil.status, 200);
    for (const key of Object.keys(evil.body.metadata.labels)) {
      assert.ok(key === 'tenancy.warren.dev/tenant' || key.startsWith(`${acmeId}.`) || key.startsWith(`${acmeId}/`), `host label key ${key}`);
    }
    const grab = await env.host().request<any>('GET', `/apis/${RBAC}/v1/clusterroles/${acmeId}-grab`);
    for (const selector of grab.body.aggregationRule.clusterRoleSelectors) {
      assert.equal(selector.matchLabels['tenancy.warren.dev/tenant'], acmeId, 'every selector is narrowed to acme\'s own roles');
    }
    // globex labels a role the same way: acme's aggregation must not see it, in the gateway either.
    await env.apply('globex', `
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: bait, labels: { ${RBAC}/aggregate-to-edit: "true" } }
rules: [{ apiGroups: ["bait.example"], resources: ["*"], verbs: ["*"] }]
`, 'bait.yaml');
    const shown = await env.as('acme')('get', 'clusterrole', 'grab', '-o', 'json');
    assert.equal(shown.includes('bait.example'), false, 'globex\'s rule is not in acme\'s aggregated role');
    assert.equal(shown.includes('tenancy.warren.dev'), false);
  });

  it('a host-filled token Secret is read without its token: get, list, all namespaces, watch, Table', async () => {
    // What the 1.20 token controller writes for the ServiceAccount (random suffix, host-signed token).
    const planted = await env.host().request('POST', `/api/v1/namespaces/${acmeId}-bots/secrets`, {
      apiVersion: 'v1', kind: 'Secret',
      metadata: { name: 'bot-token-x7k2q', annotations: { 'kubernetes.io/service-account.name': 'bot', 'kubernetes.io/service-account.uid': 'u-1' }, labels: { 'tenancy.warren.dev/tenant': acmeId } },
      type: 'kubernetes.io/service-account-token',
      data: { token: b64(HOST_TOKEN), 'ca.crt': b64('HOST CA'), namespace: b64(`${acmeId}-bots`) },
    });
    assert.equal(planted.status, 201, JSON.stringify(planted.body));
    const acme = env.as('acme');
    const outputs = [
      await acme('get', 'secret', 'bot-token-x7k2q', '-n', 'bots', '-o', 'json'),
      await acme('get', 'secrets', '-n', 'bots', '-o', 'json'),
      await acme('get', 'secrets', '-A', '-o', 'yaml'),
      await acme('get', 'secret', 'bot-token-x7k2q', '-n', 'bots', '-o', 'jsonpath={.data}'),
      await acme('describe', 'secret', 'bot-token-x7k2q', '-n', 'bots'),
    ];
    const http = env.http('acme');
    const table = await http.get('/api/v1/namespaces/bots/secrets?includeObject=Object', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.equal(table.status, 200);
    outputs.push(table.text);
    const watch = await http.get('/api/v1/namespaces/bots/secrets?watch=1&timeoutSeconds=3');
    outputs.push(watch.text);
    assert.match(watch.text, /bot-token-x7k2q/, 'the watch did show the Secret');
    for (const out of outputs) {
      assert.equal(out.includes(b64(HOST_TOKEN)) || out.includes(HOST_TOKEN), false, `a host token reached the tenant:\n${out.slice(0, 400)}`);
      assert.equal(out.includes(b64('HOST CA')), false);
      assert.equal(out.includes(`${acmeId}-bots`) || out.includes(b64(`${acmeId}-bots`)), false);
    }
  });

  it('a tenant cannot write a token Secret, by create, apply or patch; nothing is stored', async () => {
    const made = await env.run('acme', 'create', '-f', env.file('sat.yaml', `
apiVersion: v1
kind: Secret
metadata: { name: mine, namespace: bots, annotations: { kubernetes.io/service-account.name: bot } }
type: kubernetes.io/service-account-token
`));
    assert.notEqual(made.code, 0);
    assert.match(made.stderr, /type: Forbidden/);
    assert.equal(made.stderr.includes(acmeId), false);
    assert.equal((await env.host().request('GET', `/api/v1/namespaces/${acmeId}-bots/secrets/mine`)).status, 404);
    const raw = await env.http('acme').post('/api/v1/namespaces/bots/secrets', { metadata: { name: 'mine2' }, type: 'kubernetes.io/service-account-token' });
    assert.equal(raw.status, 422, 'kind-less body, refused by the URL\'s kind');
    const patched = await env.run('acme', 'annotate', 'secret', 'bot-token-x7k2q', '-n', 'bots', 'kubernetes.io/service-account.name=default', '--overwrite');
    assert.notEqual(patched.code, 0, 'the planted token Secret cannot be re-pointed');
    const host = await env.host().request<any>('GET', `/api/v1/namespaces/${acmeId}-bots/secrets/bot-token-x7k2q`);
    assert.equal(host.body.metadata.annotations['kubernetes.io/service-account.name'], 'bot');
    await env.as('acme')('delete', 'secret', 'bot-token-x7k2q', '-n', 'bots');
  });

  it('the token never reaches another tenant: globex\'s base URL, a re-signed or tampered token get nothing', async () => {
    const doc = parse(readFileSync(tokenKubeconfig('bot-http', token), 'utf8'));
    const http = new KubeHttp(stringify(doc));
    const globexId = env.idOf('globex');
    const cross = await http.get(`/tenants/${globexId}/api/v1/namespaces`);
    assert.ok(cross.status === 401 || cross.status === 403 || cross.status === 404, `globex's base URL answered ${cross.status}`);
    assert.equal(cross.text.includes('"items"'), false, 'no list of globex\'s namespaces');
    // The tenant claim swapped to globex's id: the signature no longer holds.
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
    claims['warren.dev/tenant'] = globexId;
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    const refused = await env.kubectlWith(tokenKubeconfig('forged', forged), ['get', 'namespaces']);
    assert.match(refused.stderr, /Unauthorized|must be logged in/);
  });

  it('deleting the ServiceAccount kills its tokens; a new one with the same name does not revive them', async () => {
    await env.as('acme')('delete', 'serviceaccount', 'bot', '-n', 'bots');
    await eventually(async () => /Unauthorized|must be logged in/.test((await asBot('get', 'pods', '-n', 'bots')).stderr), 'the deleted ServiceAccount\'s token is refused', { timeoutMs: 30_000 });
    await env.as('acme')('create', 'serviceaccount', 'bot', '-n', 'bots');
    await new Promise((r) => setTimeout(r, 6_000)); // past the 5 s lookup cache: the answer below is a fresh one
    assert.match((await asBot('get', 'pods', '-n', 'bots')).stderr, /Unauthorized|must be logged in/);
  });
});
