// `warren serve` on a real Kubernetes 1.20 control plane (with its
// controller-manager), set up as the README says: onboarding of tenants/ (both
// Ready, with status a real apiserver accepts), credentials with kubectl 1.27 and
// 1.33 and client-node through the gateway, isolation, quota, suspension,
// revocation, the web console (the admin token reads its state API over HTTPS,
// a tenant's certificate gets 403), and a deletion that leaves nothing of the
// tenant on the host, by a scan of every resource type the real server lists
// through discovery; then a new Tenant with the deleted one's id, which must not
// accept its old credential.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, type ApiException } from '@kubernetes/client-node';
import { kubectlAs, table, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { kubectl } from '../helpers/kubectl.ts';
import { eventually } from '../helpers/poll.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import { TENANTS_PATH, TENANT_API_VERSION } from '../../src/tenants/tenant-crd.ts';
import { waitForTenant } from '../../src/up/wait-for-tenants.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { gatewayGet, kubeconfigParts } from '../helpers/gateway-https.ts';
import { realKubeSkipReason, startRealWarren, warmTenantOpenApi, type RealWarren } from '../helpers/real-warren.ts';
import { leftovers, listEverything } from '../helpers/upstream-leftovers.ts';

const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
const UNAUTHORIZED = 'error: You must be logged in to the server (Unauthorized)\n';

/**
 * kubectl's answer to a refused credential: exit 1, nothing on stdout, kube's Unauthorized line
 * last; before it, kubectl 1.30+ logs each discovery attempt that was refused the same way
 * (`memcache.go:NNN] ... the server has asked for the client to provide credentials`), and
 * nothing else may be there.
 */
function assertUnauthorized(r: RunResult, what: string): void {
  assert.deepEqual([r.code, r.stdout], [1, ''], `${what}:\n${r.stderr}`);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(`${lines.at(-1) ?? ''}\n`, UNAUTHORIZED, `${what}:\n${r.stderr}`);
  for (const line of lines.slice(0, -1)) assert.match(line, /memcache\.go:\d+\].*the server has asked for the client to provide credentials/, what);
}

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}
function refused(r: RunResult, what: string): string {
  assert.notEqual(r.code, 0, `${what} should have failed:\n${r.stdout}`);
  return r.stderr;
}
const names = (out: string): string[] => table(out).slice(1).map((r) => r[0] ?? '');

const skip = realKubeSkipReason();

describe('warren serve on a real kube-apiserver 1.20', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let acmeId = '';
  let globexId = '';
  let acmeKc = '';
  let globexKc = '';
  /** acme's admin with kubectl; nothing it prints may show an upstream prefix. */
  const acme = async (args: string[], version?: string): Promise<RunResult> => {
    const r = await kubectlAs(acmeKc, version)(args);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(`${acmeId}-|${globexId}-`), `kubectl ${args.join(' ')} shows an upstream prefix`);
    return r;
  };
  const globex = (args: string[]): Promise<RunResult> => kubectlAs(globexKc)(args);

  before(async () => {
    w = await startRealWarren();
    acmeId = await w.tenantId('acme');
    globexId = await w.tenantId('globex');
    acmeKc = await w.kubeconfigOf('acme');
    globexKc = await w.kubeconfigOf('globex');
    // kubectl create -f downloads /openapi/v2 first: see warmTenantOpenApi.
    await warmTenantOpenApi(readFileSync(acmeKc, 'utf8'));
  });
  after(async () => {
    // What warren serve said at warn and above, for a failure's diagnosis.
    const loud = (w?.output() ?? '').split('\n').filter((l) => /"level":"(warn|error)"/.test(l));
    if (loud.length > 0) process.stderr.write(`warren serve, warn and above (last 40):\n${loud.slice(-40).join('\n')}\n`);
    await w?.stop();
  });

  it('onboarding: both tenants Ready, with a status the real apiserver stored; /readyz passes', async () => {
    for (const [name, id] of [['acme', acmeId], ['globex', globexId]] as const) {
      assert.match(id, /^[a-z][a-z0-9]{5}$/);
      const tenant = JSON.parse(ok(await w.hostKubectl(['get', 'tenant', name, '-o', 'json']), `get tenant ${name}`));
      assert.equal(tenant.status.phase, 'Ready');
      const types = (tenant.status.conditions as Array<{ type: string; status: string }>).filter((c) => c.status === 'True').map((c) => c.type).sort();
      assert.deepEqual(types, ['CredentialsReady', 'IdAssigned', 'NamespacesReady', 'RbacReady', 'Ready']);
      // The tenant's namespaces exist upstream under its prefix, labelled as the tenant's.
      const ns = JSON.parse(ok(await w.hostKubectl(['get', 'namespace', `${id}-default`, '-o', 'json']), 'upstream namespace'));
      assert.equal(ns.metadata.labels['tenancy.warren.dev/tenant'], id);
    }
    const readyz = await w.hostHttp.get('/readyz'); // the host itself
    assert.equal(readyz.status, 200);
    // The gateway's readiness, through kubectl (the gateway's serving CA is in the tenant's kubeconfig).
    const verbose = ok(await acme(['get', '--raw', '/readyz?verbose']), 'gateway readyz');
    assert.match(verbose, /\[\+\]controllers-synced ok/);
    assert.match(verbose, /readyz check passed/);
  });

  it('discovery: CronJobs, which 1.20 serves at batch/v1beta1 only, are watched there (said once, at info), and nothing waits for batch/v1', () => {
    const lines = w.output().split('\n').filter((l) => l.includes('serves cronjobs as batch/v1beta1, not batch/v1'));
    assert.equal(lines.length, 1, w.output().slice(-3000));
    assert.equal(JSON.parse(lines[0]!).level, 'info');
    assert.doesNotMatch(w.output(), /does not serve batch\/v1 cronjobs/);
    assert.doesNotMatch(w.output(), /informer \/apis\/batch\/v1\/cronjobs/);
  });

  it('credentials: kubectl 1.27 and 1.33 and client-node see a cluster of their own', async () => {
    for (const version of ['1.27', '1.33']) {
      assert.deepEqual(names(ok(await acme(['get', 'ns'], version), `get ns ${version}`)), SYSTEM_NAMESPACES, version);
      assert.equal(ok(await acme(['auth', 'can-i', 'create', 'deployments', '-n', 'default'], version), `can-i ${version}`), 'yes\n');
    }
    ok(await acme(['create', 'namespace', 'shop']), 'create ns');
    ok(await acme(['create', 'configmap', 'settings', '-n', 'shop', '--from-literal=colour=blue']), 'create cm');
    const kc = new KubeConfig();
    kc.loadFromFile(acmeKc);
    const core = kc.makeApiClient(CoreV1Api);
    const cm = await core.readNamespacedConfigMap({ name: 'settings', namespace: 'shop' });
    assert.deepEqual([cm.metadata?.namespace, cm.data], ['shop', { colour: 'blue' }]);
    const list = await core.listNamespace();
    assert.deepEqual(list.items.map((n) => n.metadata?.name ?? '').sort(), [...SYSTEM_NAMESPACES, 'shop'].sort());
    await assert.rejects(core.readNamespacedConfigMap({ name: 'nope', namespace: 'shop' }), (err: ApiException<string>) => {
      assert.equal(err.code, 404);
      assert.match(String(err.body), /configmaps \\?"nope\\?" not found/);
      assert.doesNotMatch(String(err.body), new RegExp(`${acmeId}-`));
      return true;
    });
  });

  it('isolation: acme cannot reach globex\'s objects by their upstream names', async () => {
    ok(await globex(['create', 'namespace', 'secret-plans']), 'globex ns');
    ok(await globex(['create', 'configmap', 'plan', '-n', 'secret-plans', '--from-literal=x=y']), 'globex cm');
    for (const args of [
      ['get', 'configmap', 'plan', '-n', `${globexId}-secret-plans`],
      ['get', 'namespace', `${globexId}-secret-plans`],
      ['delete', 'configmap', 'plan', '-n', `${globexId}-secret-plans`],
    ]) {
      const r = await kubectlAs(acmeKc)(args);
      assert.notEqual(r.code, 0, `acme ${args.join(' ')} should fail:\n${r.stdout}`);
      assert.match(r.stderr, /NotFound|Forbidden|Invalid/, r.stderr);
    }
    assert.deepEqual(names(ok(await acme(['get', 'configmaps', '-A']), 'acme get cm -A')).filter((n) => n === 'plan'), []);
    assert.equal(ok(await globex(['get', 'configmap', 'plan', '-n', 'secret-plans', '-o', 'jsonpath={.data.x}']), 'still there'), 'y');
  });

  it('console: the platform-admin token reads the state over HTTPS (both tenants, in their own names); a tenant certificate gets 403', async () => {
    const token = ok(await w.warren(['admin', 'token']), 'warren admin token').trim();
    const acmeAuth = kubeconfigParts(acmeKc);
    const state = await eventually(async () => {
      const r = await gatewayGet(`${w.gatewayUrl}/console/api/state`, { ca: acmeAuth.ca, token });
      assert.equal(r.status, 200, r.body);
      const body = JSON.parse(r.body) as { tenants: { name: string; id: string; phase: string }[] };
      assert.deepEqual(body.tenants.filter((t) => t.phase === 'Ready').map((t) => t.name).sort(), ['acme', 'globex']);
      return body;
    }, 'the console state lists acme and globex Ready', { timeoutMs: 60_000 });
    assert.equal(state.tenants.find((t) => t.name === 'acme')?.id, acmeId);
    for (const path of ['/console/api/state', '/console/']) {
      const r = await gatewayGet(`${w.gatewayUrl}${path}`, acmeAuth);
      assert.equal(r.status, 403, `${path} with acme's certificate: ${r.body}`);
      assert.doesNotMatch(r.body, new RegExp(`${acmeId}-|${globexId}-`));
    }
  });

  it('quota: a create over the tenant\'s cpu quota is refused 403 in tenant terms, and nothing is written', async () => {
    ok(await w.hostKubectl(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"quota":{"cpu":"2"}}}']), 'patch quota');
    const deployment = (name: string, replicas: number): string => JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'shop' },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1' } } }] } } },
    });
    const refusal = await eventually(async () => {
      const over = await runWithInput(acmeKc, ['create', '-f', '-'], deployment('big', 3));
      return over.code !== 0 ? over : undefined;
    }, 'the quota to be enforced', { timeoutMs: 30_000, intervalMs: 500 });
    assert.match(refusal.stderr, /\(Forbidden\).*deployments\.apps "big" is forbidden: exceeded quota: tenant-quota, requested: requests\.cpu=3, used: requests\.cpu=0, limited: requests\.cpu=2/);
    assert.doesNotMatch(refusal.stderr, new RegExp(`${acmeId}-`));
    const gone = await acme(['get', 'deployment', 'big', '-n', 'shop']);
    assert.match(refused(gone, 'get big'), /NotFound/);
    assert.equal(ok(await runWithInput(acmeKc, ['create', '-f', '-'], deployment('small', 2)), 'under quota'), 'deployment.apps/small created\n');
  });

  it('suspension refuses writes with a 403, keeps reads, and lifting it resumes writes', async () => {
    ok(await w.hostKubectl(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"suspended":true}}']), 'suspend');
    const why = 'tenant "acme" is suspended: writes are refused until the suspension is lifted; reads still work';
    const suspendedMsg = `Error from server (Forbidden): ${why}\n`;
    // kubectl 1.32+ prints a refused `create configmap` as "error: failed to create configmap: <message>",
    // without the status: -v=6 logs the response line, which shows the 403.
    const refusal = await eventually(async () => {
      const r = await acme(['create', 'configmap', 'during', '-n', 'shop', '--from-literal=a=b', '-v=6']);
      return r.code !== 0 ? r : undefined;
    }, 'writes to be refused', { timeoutMs: 20_000, intervalMs: 300 });
    assert.equal(refusal.code, 1, refusal.stderr);
    assert.match(refusal.stderr, /\] POST https:\/\/\S+\/api\/v1\/namespaces\/shop\/configmaps\S* 403 Forbidden in \d+ milliseconds\n/);
    assert.match(refusal.stderr, new RegExp(`\\nerror: failed to create configmap: ${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    assert.equal(refused(await acme(['delete', 'configmap', 'settings', '-n', 'shop']), 'delete while suspended'), suspendedMsg);
    assert.match(refused(await acme(['get', 'configmap', 'during', '-n', 'shop']), 'the refused create wrote nothing'), /NotFound/);
    await eventually(async () => (await w.hostKubectl(['get', 'tenant', 'acme', '-o', 'jsonpath={.status.phase}'])).stdout === 'Suspended', 'phase Suspended');
    assert.deepEqual(names(ok(await acme(['get', 'configmaps', '-n', 'shop']), 'read while suspended')).filter((n) => n === 'settings'), ['settings']);
    ok(await globex(['create', 'configmap', 'c1', '-n', 'secret-plans', '--from-literal=a=b']), 'globex writes meanwhile');

    ok(await w.hostKubectl(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"suspended":false}}']), 'resume');
    const created = await eventually(async () => {
      const r = await acme(['create', 'configmap', 'after-resume', '-n', 'shop', '--from-literal=a=b']);
      return r.code === 0 ? r : undefined;
    }, 'writes to work again', { timeoutMs: 20_000, intervalMs: 300 });
    assert.equal(created.stdout, 'configmap/after-resume created\n');
    await eventually(async () => (await w.hostKubectl(['get', 'tenant', 'acme', '-o', 'jsonpath={.status.phase}'])).stdout === 'Ready', 'phase Ready again');
  });

  it('revocation: every earlier acme credential gets 401; the re-issued kubeconfig works', async () => {
    const oldBob = await w.kubeconfigOf('acme', 'bob');
    ok(await kubectlAs(acmeKc)(['get', 'ns']), 'old admin before revoke');
    const revoke = ok(await w.warren(['tenant', 'revoke', 'acme']), 'revoke');
    assert.match(revoke, /^tenant\/acme: every credential issued before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is revoked; new ones are being issued\n$/);
    for (const [who, kc] of [['admin', acmeKc], ['bob', oldBob]] as const) {
      const r = await eventually(async () => {
        const got = await kubectlAs(kc)(['get', 'ns']);
        return got.code !== 0 ? got : undefined;
      }, `old ${who} kubeconfig refused`, { timeoutMs: 20_000, intervalMs: 300 });
      assertUnauthorized(r, `old ${who} kubeconfig`);
    }
    assertUnauthorized(await kubectlAs(acmeKc, '1.27')(['get', 'ns']), 'old admin kubeconfig, kubectl 1.27');
    const fresh = await eventually(async () => {
      const path = await w.kubeconfigOf('acme');
      const r = await kubectlAs(path)(['get', 'ns']);
      return r.code === 0 ? r : undefined;
    }, 'a re-issued acme kubeconfig that works', { timeoutMs: 30_000, intervalMs: 500 });
    assert.ok(names(fresh.stdout).includes('shop'));
    ok(await globex(['get', 'ns']), 'globex untouched by acme\'s revocation');
  });

  it('deleting a tenant stops its credentials and leaves nothing of it on the real host', async () => {
    // Something to clean: namespaced objects (a Deployment the real controller-manager expands
    // into a ReplicaSet and Pods), cluster-scoped RBAC, a CRD of its own.
    ok(await globex(['create', 'deployment', 'api', '--image=nginx', '-n', 'secret-plans']), 'create deploy');
    ok(await globex(['create', 'clusterrole', 'reader', '--verb=get', '--resource=pods']), 'create clusterrole');
    ok(await globex(['create', 'clusterrolebinding', 'reader', '--clusterrole=reader', '--user=frank']), 'create crb');
    await eventually(async () => {
      const r = await w.hostKubectl(['get', 'pods', '-n', `${globexId}-secret-plans`, '-o', 'name']);
      return r.code === 0 && r.stdout.includes('pod/api-');
    }, 'the real controller-manager to make the Deployment\'s pods', { timeoutMs: 60_000, intervalMs: 500 });
    const host = (args: string[], timeoutMs?: number): Promise<RunResult> => kubectlAs(w.host.kubeconfigPath)(args, timeoutMs);
    const beforeScan = await listEverything(host);
    assert.ok(leftovers(beforeScan.objects, globexId, 'globex').length > 10, 'the scan sees globex before deletion');

    const deleted = await w.warren(['tenant', 'delete', 'globex', '--wait'], 240_000);
    // Between the two, --wait prints a progress line per phase it saw (src/cli/progress.ts): how many
    // depends on how long the deletion takes, so only their form is fixed.
    const said = ok(deleted, 'tenant delete').split('\n');
    assert.equal(said.shift(), 'tenant/globex deleted', said.join('\n'));
    assert.deepEqual(said.splice(-2), ['tenant/globex is gone, with everything it had', ''], said.join('\n'));
    for (const line of said) assert.match(line, /^ {2}\[ *\d+\.\ds\] tenant\/globex: (Ready|Terminating)/);
    assertUnauthorized(await globex(['get', 'ns']), 'a deleted tenant\'s kubeconfig');

    const afterScan = await listEverything(host);
    assert.ok(afterScan.resources.includes('namespaces') && afterScan.resources.includes('pods') && afterScan.resources.includes('replicasets.apps'), afterScan.resources.join(' '));
    assert.deepEqual(leftovers(afterScan.objects, globexId, 'globex'), []);
    assert.ok(leftovers(afterScan.objects, acmeId, 'acme').length > 0, 'acme is still there');
  });

  it('issue 13 item 8: a new Tenant given the deleted one\'s id does not accept the old one\'s kubeconfig on the real host', async () => {
    const upstream = createUpstream({ path: w.host.kubeconfigPath });
    try {
      const created = await upstream.request('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: 'umbrella' }, spec: { id: globexId, users: [{ name: 'hank', admin: true }] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ready = await waitForTenant(upstream, 'umbrella', 120_000);
      assert.equal(ready.id, globexId, 'umbrella took globex\'s old id');
      const fresh = join(w.dir, 'umbrella.kubeconfig');
      writeFileSync(fresh, ready.adminKubeconfig, { mode: 0o600 });
      ok(await kubectlAs(fresh)(['get', 'ns']), 'umbrella\'s own admin');
      // The same id, the same user name (hank): globex's old certificate still names both, and is refused.
      assertUnauthorized(await globex(['get', 'ns']), 'globex\'s old kubeconfig against umbrella');
      const raw = await new KubeHttp(readFileSync(globexKc, 'utf8')).post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'zombie' } });
      assert.equal(raw.status, 401, `raw HTTPS with globex's old certificate: ${raw.text.slice(0, 200)}`);
      assert.equal((await w.hostHttp.get(`/api/v1/namespaces/${globexId}-zombie`)).status, 404, 'nothing stored');
    } finally {
      upstream.close();
    }
  });
});

/** kubectl with a manifest on stdin. */
async function runWithInput(kubeconfigPath: string, args: string[], input: string): Promise<RunResult> {
  const r = await kubectl('1.33', args, { kubeconfigPath, input, timeoutMs: 90_000 });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}
