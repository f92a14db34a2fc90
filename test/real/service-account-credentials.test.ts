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
//     under the tenant's RBAC;
//   - no credential a tenant Pod can get on the host (the token Secret of its
//     ServiceAccount that the host mounts, a token Secret made on the host, a
//     TokenRequest token as a projected volume gets) grants anything there, while
//     the tenant's bindings of that ServiceAccount keep working at the gateway;
//   - legacy tenant RBAC (before ADR 0028) is a real host grant and is aggregated
//     into the host's admin until the migration rewrites it; then neither holds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { kubectlAs, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { eventually } from '../helpers/poll.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import { upstreamObjectClient } from '../../src/kube/object-client.ts';
import { migrateLegacyTenantRbac } from '../../src/controllers/onboarding/migrate-legacy-rbac.ts';

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

  /** A client of the host that authenticates with `token` instead of the admin's. */
  const hostAs = (token: string): KubeHttp => {
    const doc = parse(w.host.kubeconfig) as { users: Array<{ user: Record<string, string> }> };
    for (const u of doc.users) u.user = { token };
    return new KubeHttp(stringify(doc));
  };
  /** What a host token may do in the tenant's namespace: [read secrets, create a ConfigMap, list pods everywhere]. */
  const hostPowers = async (token: string): Promise<number[]> => {
    const as = hostAs(token);
    return [
      (await as.get(`/api/v1/namespaces/${id}-bots/secrets`)).status,
      (await as.post(`/api/v1/namespaces/${id}-bots/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${Date.now()}` } })).status,
      (await as.get('/api/v1/pods')).status,
    ];
  };
  const filledToken = (secretName: string): Promise<string> => eventually(async () => {
    const res = await w.hostHttp.get(`/api/v1/namespaces/${id}-bots/secrets/${secretName}`);
    const token = res.status === 200 ? (res.body.data?.token as string | undefined) : undefined;
    return token ? Buffer.from(token, 'base64').toString() : undefined;
  }, `the host token controller filled ${secretName}`, { timeoutMs: 60_000 });

  it('no host credential of a tenant Pod grants anything on the host; the tenant\'s bindings still work at the gateway', async () => {
    // The tenant grants its ServiceAccount everything it can, every way kube allows.
    await acme('create', 'rolebinding', 'bot-admin', '--clusterrole=cluster-admin', '--serviceaccount=bots:bot', '-n', 'bots');
    await acme('create', 'clusterrolebinding', 'bot-everywhere', '--clusterrole=cluster-admin', '--serviceaccount=bots:bot');
    await acme('create', 'rolebinding', 'bots-all', '--clusterrole=cluster-admin', '--group=system:serviceaccounts:bots', '--user=system:serviceaccount:bots:bot', '-n', 'bots');
    // At the gateway: as before, in the tenant's names.
    await eventually(async () => (await run(['auth', 'can-i', 'get', 'secrets', '-n', 'bots', '--as=system:serviceaccount:bots:bot'])).stdout.trim() === 'yes', 'the bot may read secrets at the gateway', { timeoutMs: 60_000 });
    assert.equal((await run(['auth', 'can-i', 'create', 'configmaps', '-A', '--as=system:serviceaccount:bots:bot'])).stdout.trim(), 'yes');
    const rb = JSON.parse(await acme('get', 'rolebinding', 'bot-admin', '-n', 'bots', '-o', 'json')) as { subjects: unknown[] };
    assert.deepEqual(rb.subjects, [{ kind: 'ServiceAccount', name: 'bot', namespace: 'bots' }]);
    const crb = JSON.parse(await acme('get', 'clusterrolebinding', 'bot-everywhere', '-o', 'json')) as { subjects: unknown[] };
    assert.deepEqual(crb.subjects, [{ kind: 'ServiceAccount', name: 'bot', namespace: 'bots' }]);
    // On the host, no binding names a host identity of acme.
    for (const path of [`/apis/${RBAC}/v1/namespaces/${id}-bots/rolebindings`, `/apis/${RBAC}/v1/clusterrolebindings`]) {
      const items = (await w.hostHttp.get(path)).body.items as Array<{ metadata: { name: string; labels?: Record<string, string> }; subjects?: Array<{ kind: string; name: string }> }>;
      for (const b of items.filter((i) => i.metadata.labels?.['tenancy.warren.dev/tenant'] === id)) {
        for (const subject of b.subjects ?? []) assert.ok(subject.kind !== 'ServiceAccount' && subject.name.startsWith(`warren:${id}:`), `${b.metadata.name}: ${JSON.stringify(subject)}`);
      }
    }

    // 1. The token the host mounts into the Pod (automount: a Secret volume of the ServiceAccount's token Secret).
    await acme('run', 'app', '--image=busybox', '--restart=Never', '--overrides={"spec":{"serviceAccountName":"bot"}}', '-n', 'bots');
    const pod = (await w.hostHttp.get(`/api/v1/namespaces/${id}-bots/pods/app`)).body as { spec: { volumes?: Array<{ secret?: { secretName: string } }> } };
    const mounted = pod.spec.volumes?.find((v) => v.secret?.secretName.startsWith('bot-token-'))?.secret?.secretName;
    assert.ok(mounted, `the host mounted bot's token Secret: ${JSON.stringify(pod.spec.volumes)}`);
    // 2. A token Secret made on the host (a tenant can no longer write one: see above; one made before is filled the same).
    const made = await w.hostHttp.post(`/api/v1/namespaces/${id}-bots/secrets`, {
      apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token',
      metadata: { name: 'made-on-host', annotations: { 'kubernetes.io/service-account.name': 'bot' } },
    });
    assert.equal(made.status, 201);
    // 3. A TokenRequest token, as the kubelet gets for a projected serviceAccountToken volume.
    const requested = await w.hostHttp.post(`/api/v1/namespaces/${id}-bots/serviceaccounts/bot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } });
    assert.equal(requested.status, 201, JSON.stringify(requested.body));
    const tokens = { mounted: await filledToken(mounted), made: await filledToken('made-on-host'), projected: requested.body.status.token as string };
    for (const [how, token] of Object.entries(tokens)) {
      // Each is a valid host credential (authenticated: 403, not 401) that may do nothing.
      assert.deepEqual(await hostPowers(token), [403, 403, 403], `${how} token`);
    }
  });

  it('legacy tenant RBAC is a host grant and joins the host\'s admin until the migration rewrites it', async () => {
    const L = { 'tenancy.warren.dev/tenant': id };
    // As stored before ADR 0028: a role with the tenant's own label key, a binding to the host ServiceAccount.
    assert.equal((await w.hostHttp.post(`/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: `${id}-legacy`, labels: { ...L, [`${RBAC}/aggregate-to-admin`]: 'true' } },
      rules: [{ apiGroups: ['legacy.example'], resources: ['things'], verbs: ['*'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
    })).status, 201);
    assert.equal((await w.hostHttp.post(`/apis/${RBAC}/v1/namespaces/${id}-bots/rolebindings`, {
      apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'legacy', labels: L },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `${id}-legacy` }, subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: `${id}-bots` }],
    })).status, 201);
    const token = (await w.hostHttp.post(`/api/v1/namespaces/${id}-bots/serviceaccounts/bot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } })).body.status.token as string;
    // The hole, shown on this host: the host aggregates the role into admin, and the token reads secrets.
    await eventually(async () => (await hostRules('admin'))?.some((r) => r.apiGroups?.includes('legacy.example')), 'host admin took the legacy role', { timeoutMs: 90_000 });
    await eventually(async () => (await hostAs(token).get(`/api/v1/namespaces/${id}-bots/secrets`)).status === 200, 'the legacy binding is a host grant', { timeoutMs: 30_000 });

    const upstream = createUpstream({ yaml: w.host.kubeconfig });
    const written = await migrateLegacyTenantRbac(upstreamObjectClient(upstream), () => undefined);
    assert.ok(written >= 2, `rewrote ${written}`);
    assert.equal(await migrateLegacyTenantRbac(upstreamObjectClient(upstream), () => undefined), 0, 'idempotent');
    await eventually(async () => !(await hostRules('admin'))?.some((r) => r.apiGroups?.includes('legacy.example')), 'host admin dropped the legacy role', { timeoutMs: 90_000 });
    await eventually(async () => (await hostAs(token).get(`/api/v1/namespaces/${id}-bots/secrets`)).status === 403, 'the legacy grant is gone', { timeoutMs: 30_000 });
    // The tenant still sees both as it wrote them, and its own aggregation still reads the key.
    const role = JSON.parse(await acme('get', 'clusterrole', 'legacy', '-o', 'json')) as { metadata: { labels: Record<string, string> } };
    assert.equal(role.metadata.labels[`${RBAC}/aggregate-to-admin`], 'true');
    const rb = JSON.parse(await acme('get', 'rolebinding', 'legacy', '-n', 'bots', '-o', 'json')) as { subjects: unknown[] };
    assert.deepEqual(rb.subjects, [{ kind: 'ServiceAccount', name: 'bot', namespace: 'bots' }]);
  });
});
