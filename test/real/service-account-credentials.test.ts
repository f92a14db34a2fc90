// ADR 0028 on a real 1.20 host with its controller-manager (token controller and
// clusterrole-aggregation controller), `warren serve` in front of it:
//   - the host's token controller fills a token Secret for every tenant
//     ServiceAccount (a HOST credential); through the gateway it is read without
//     its token (get, list, all namespaces, watch), and a tenant cannot create
//     one for the controller to fill;
//   - a tenant ClusterRole labelled aggregate-to-admin does not join the host's
//     admin, and a tenant aggregationRule gets only the tenant's own roles, once
//     the host controller has visibly aggregated the tenant's role;
//   - `kubectl create token` answers a Warren token that works at the gateway
//     under the tenant's RBAC.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { kubectlAs, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { eventually } from '../helpers/poll.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';

const RBAC = 'rbac.authorization.k8s.io';
const skip = realKubeSkipReason();

interface Rule { apiGroups?: string[]; resources?: string[]; verbs: string[] }

describe('ServiceAccount credentials and host aggregation on a real host (ADR 0028)', { timeout: 900_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let id = '';
  let kc = '';
  const run = (args: string[], kubeconfig = kc): Promise<RunResult> => kubectlAs(kubeconfig)(args, 120_000);
  const acme = async (...args: string[]): Promise<string> => {
    const r = await run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const apply = async (name: string, text: string): Promise<void> => {
    const file = join(w.dir, name);
    writeFileSync(file, text);
    await acme('apply', '--validate=false', '-f', file);
  };
  const hostRules = async (name: string): Promise<Rule[] | undefined> => {
    const res = await w.hostHttp.get(`/apis/${RBAC}/v1/clusterroles/${name}`);
    return res.status === 200 ? (res.body.rules ?? []) as Rule[] : undefined;
  };

  before(async () => {
    w = await startRealWarren({ members: 0 });
    id = await w.tenantId('acme');
    kc = await w.kubeconfigOf('acme');
    await acme('create', 'namespace', 'bots');
    await acme('create', 'serviceaccount', 'bot', '-n', 'bots');
  });
  after(async () => { await w?.stop(); });

  it('the host fills a token Secret for the tenant ServiceAccount; the tenant reads it without the token', async () => {
    const hostToken = await eventually(async () => {
      const res = await w.hostHttp.get(`/api/v1/namespaces/${id}-bots/secrets`);
      const items = (res.body?.items ?? []) as Array<{ type: string; metadata: { name: string; annotations?: Record<string, string> }; data?: Record<string, string> }>;
      const secret = items.find((s) => s.type === 'kubernetes.io/service-account-token' && s.metadata.annotations?.['kubernetes.io/service-account.name'] === 'bot' && s.data?.token);
      return secret ? { name: secret.metadata.name, token: secret.data?.token ?? '' } : undefined;
    }, 'the host token controller filled bot\'s token Secret', { timeoutMs: 60_000 });
    assert.ok(hostToken.token.length > 100, 'a real host-signed token exists upstream');
    const decoded = Buffer.from(hostToken.token, 'base64').toString();
    const seen = [
      await acme('get', 'secret', hostToken.name, '-n', 'bots', '-o', 'json'),
      await acme('get', 'secrets', '-n', 'bots', '-o', 'json'),
      await acme('get', 'secrets', '-A', '-o', 'json'),
      (await run(['get', 'secrets', '-n', 'bots', '-w', '-o', 'json', '--request-timeout=5s'])).stdout,
    ];
    assert.match(seen[0] ?? '', new RegExp(hostToken.name));
    for (const out of seen) {
      assert.equal(out.includes(hostToken.token) || out.includes(decoded), false, 'a host-signed token reached the tenant');
      assert.equal(out.includes(`${id}-bots`), false);
    }
  });

  it('a tenant cannot have the host fill a token Secret it writes (422), and nothing is stored', async () => {
    const file = join(w.dir, 'sat.yaml');
    writeFileSync(file, `apiVersion: v1\nkind: Secret\nmetadata: { name: mine, namespace: bots, annotations: { kubernetes.io/service-account.name: bot } }\ntype: kubernetes.io/service-account-token\n`);
    const r = await run(['create', '--validate=false', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /type: Forbidden/);
    assert.equal((await w.hostHttp.get(`/api/v1/namespaces/${id}-bots/secrets/mine`)).status, 404);
  });

  it('host aggregation: a tenant role does not join the host\'s admin; a tenant aggregationRule gets only the tenant\'s roles', async () => {
    // A host role of the kind host admins add (an operator's CRD role): acme's aggregationRule must not get it.
    const hostRole = await w.hostHttp.post(`/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole',
      metadata: { name: 'host-operator-edit', labels: { [`${RBAC}/aggregate-to-edit`]: 'true' } },
      rules: [{ apiGroups: ['host.example'], resources: ['things'], verbs: ['*'] }],
    });
    assert.equal(hostRole.status, 201);
    await apply('aggregation.yaml', `
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: evil, labels: { ${RBAC}/aggregate-to-admin: "true" } }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: mine, labels: { ${RBAC}/aggregate-to-edit: "true" } }
rules: [{ apiGroups: ["mine.example"], resources: ["things"], verbs: ["get"] }]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: grab }
aggregationRule: { clusterRoleSelectors: [{ matchLabels: { ${RBAC}/aggregate-to-edit: "true" } }] }
rules: []
`);
    // Positive signal: the host's aggregation controller has processed acme's roles.
    const grabbed = await eventually(async () => {
      const rules = await hostRules(`${id}-grab`);
      return rules && rules.some((r) => r.apiGroups?.includes('mine.example')) ? rules : undefined;
    }, 'the host controller folded acme\'s own role into acme\'s grab', { timeoutMs: 90_000 });
    // acme's own seeded roles labelled aggregate-to-edit join too (they are acme's); the host's never.
    assert.equal(grabbed.some((r) => r.apiGroups?.includes('host.example')), false, 'the host role is not in acme\'s grab');
    assert.equal(grabbed.some((r) => r.verbs.includes('*') && r.resources?.includes('*')), false);
    // And the host's edit did take the host role: the host controller ran over it (the check above can fail).
    await eventually(async () => (await hostRules('edit'))?.some((r) => r.apiGroups?.includes('host.example')), 'host edit has the host role', { timeoutMs: 90_000 });
    const admin = await hostRules('admin');
    assert.ok(admin && admin.length > 0, 'the host admin role is there');
    assert.equal(admin.some((r) => r.verbs.includes('*') && r.resources?.includes('*')), false, 'the host admin did not take acme\'s */*/*');
    // The tenant's own view: its aggregated role, in its terms.
    const view = JSON.parse(await acme('get', 'clusterrole', 'grab', '-o', 'json')) as { aggregationRule: unknown };
    assert.deepEqual(view.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' } }] });
  });

  it('kubectl create token: a Warren token that works at the gateway under the tenant\'s RBAC', async () => {
    const token = (await acme('create', 'token', 'bot', '-n', 'bots')).trim();
    const doc = parse(readFileSync(kc, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
    for (const u of doc.users) u.user = { token };
    const botKc = join(w.dir, 'bot.kubeconfig');
    writeFileSync(botKc, stringify(doc));
    const denied = await run(['get', 'pods', '-n', 'bots'], botKc);
    assert.match(denied.stderr, /system:serviceaccount:bots:bot/);
    await acme('create', 'rolebinding', 'bot-view', '--clusterrole=view', '--serviceaccount=bots:bot', '-n', 'bots');
    await eventually(async () => (await run(['get', 'pods', '-n', 'bots'], botKc)).code === 0, 'the bot reads pods', { timeoutMs: 60_000 });
    // The Warren token is not a host credential.
    const hostDoc = parse(w.host.kubeconfig) as { users: Array<{ user: Record<string, string> }> };
    for (const u of hostDoc.users) u.user = { token };
    const onHost = await new KubeHttp(stringify(hostDoc)).get(`/api/v1/namespaces/${id}-bots/pods`);
    assert.equal(onHost.status, 401);
  });
});
