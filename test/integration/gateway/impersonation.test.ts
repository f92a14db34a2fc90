// Impersonation through a running gateway, with real kubectl: `--as` and
// `--as-group` are honoured inside the tenant when its RBAC allows `impersonate`,
// refused with kube's 403 otherwise, and `kubectl auth can-i --as` answers for the
// impersonated identity. Adversarial: impersonation never leaves the caller's
// tenant, and upgrades (exec) go through the same filter.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { kubectl, type KubectlResult } from '../../helpers/kubectl.ts';
import { eventually } from '../../helpers/poll.ts';

const RBAC = 'rbac.authorization.k8s.io';

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}
function refused(r: KubectlResult, message: string): void {
  assert.notEqual(r.code, 0, `expected a refusal, got:\n${r.stdout}`);
  assert.equal(r.stderr.trim(), `Error from server (Forbidden): ${message}`);
}

describe('impersonation through the gateway (kubectl --as)', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  const as = (version: string, who: string) => (args: string[]) => kubectl(version, args, { kubeconfigPath: h.kubeconfigPath('acme', who) });
  let admin: ReturnType<typeof as>;
  let dev: ReturnType<typeof as>;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    admin = as('1.33', 'admin');
    dev = as('1.33', 'dev');
    ok(await admin(['create', 'namespace', 'web']), 'create ns');
    ok(await as('1.33', 'admin')(['get', 'ns']), 'get ns');
    assert.equal((await h.http('globex', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'globex-only' } })).status, 201);
    // viewer may list pods in web; nobody else but the admin may.
    ok(await admin(['create', 'role', 'pod-reader', '-n', 'web', '--verb=get,list', '--resource=pods']), 'create role');
    ok(await admin(['create', 'rolebinding', 'viewer-reads', '-n', 'web', '--role=pod-reader', '--user=viewer']), 'create rolebinding');
  });
  after(async () => { await h?.stop(); });

  it('refused without impersonate: kube\'s 403, and the request does not run as the caller either', async () => {
    refused(await dev(['get', 'pods', '-n', 'web', '--as=viewer']),
      'users "viewer" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope');
    refused(await dev(['auth', 'can-i', 'list', 'pods', '-n', 'web', '--as=viewer']),
      'users "viewer" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('allowed for the named user once granted; `auth can-i --as` tells the truth for 1.27 and 1.33', async () => {
    ok(await admin(['create', 'clusterrole', 'impersonate-viewer', '--verb=impersonate', '--resource=users', '--resource-name=viewer']), 'create clusterrole');
    ok(await admin(['create', 'clusterrolebinding', 'dev-impersonates', '--clusterrole=impersonate-viewer', '--user=dev']), 'create crb');
    await eventually(async () => (await dev(['get', 'pods', '-n', 'web', '--as=viewer'])).code === 0, 'the grant to reach the gateway', { timeoutMs: 15_000, intervalMs: 200 });
    assert.match(ok(await dev(['get', 'pods', '-n', 'web', '--as=viewer']), 'get pods as viewer') + (await dev(['get', 'pods', '-n', 'web', '--as=viewer'])).stderr, /No resources found in web namespace/);
    refused(await dev(['get', 'pods', '-n', 'web']), 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "web"');
    for (const version of ['1.27', '1.33']) {
      const d = as(version, 'dev');
      assert.equal((await d(['auth', 'can-i', 'list', 'pods', '-n', 'web', '--as=viewer'])).stdout.trim(), 'yes', version);
      assert.equal((await d(['auth', 'can-i', 'delete', 'pods', '-n', 'web', '--as=viewer'])).stdout.trim(), 'no', version);
      assert.equal((await d(['auth', 'can-i', 'list', 'pods', '-n', 'web'])).stdout.trim(), 'no', version);
      assert.match(ok(await d(['auth', 'can-i', '--list', '-n', 'web', '--as=viewer']), `can-i --list ${version}`), /^pods\s+\[\]\s+\[\]\s+\[get list\]$/m);
    }
  });

  it('refused for another user, a group or a ServiceAccount the grant does not name', async () => {
    refused(await dev(['get', 'pods', '-n', 'web', '--as=admin']),
      'users "admin" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope');
    refused(await dev(['get', 'pods', '-n', 'web', '--as=viewer', '--as-group=admins']),
      'groups "admins" is forbidden: User "dev" cannot impersonate resource "groups" in API group "" at the cluster scope');
    refused(await dev(['get', 'pods', '-n', 'web', '--as=system:serviceaccount:web:default']),
      'serviceaccounts "default" is forbidden: User "dev" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "web"');
  });

  it('--as-group honoured once granted: auth can-i answers for the impersonated groups', async () => {
    ok(await admin(['create', 'clusterrole', 'impersonate-readers', '--verb=impersonate', '--resource=groups', '--resource-name=readers']), 'create clusterrole');
    ok(await admin(['create', 'clusterrolebinding', 'dev-impersonates-readers', '--clusterrole=impersonate-readers', '--user=dev']), 'create crb');
    ok(await admin(['create', 'role', 'cm-reader', '-n', 'web', '--verb=get', '--resource=configmaps']), 'create role');
    ok(await admin(['create', 'rolebinding', 'readers-read', '-n', 'web', '--role=cm-reader', '--group=readers']), 'create rolebinding');
    const canI = async (...extra: string[]) => (await dev(['auth', 'can-i', 'get', 'configmaps', '-n', 'web', '--as=viewer', ...extra])).stdout.trim();
    await eventually(async () => (await canI('--as-group=readers')) === 'yes', 'the group grant to reach the gateway', { timeoutMs: 15_000, intervalMs: 200 });
    assert.equal(await canI(), 'no');
  });

  it('a group without a user is a 400', async () => {
    const r = await h.http('acme', 'dev').get('/api/v1/namespaces/web/pods', { 'Impersonate-Group': 'admins' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.message, /without impersonating a user name/);
  });

  it('adversarial: an impersonating tenant admin stays in its tenant, whatever names it asks for', async () => {
    for (const extra of [['--as=admin'], ['--as=admin', '--as-group=system:masters']]) {
      const names = ok(await admin(['get', 'ns', '-o', 'name', ...extra]), `get ns ${extra.join(' ')}`);
      assert.equal(names.includes('globex-only'), false, names);
      assert.match(names, /namespace\/web/);
    }
    // system:masters means nothing inside a tenant: acting as it grants no rights at all.
    refused(await admin(['get', 'ns', '--as=system:admin', '--as-group=system:masters']),
      'namespaces is forbidden: User "system:admin" cannot list resource "namespaces" in API group "" at the cluster scope');
    // globex's admin may impersonate anyone in globex: acme's objects stay out of reach.
    assert.equal((await h.http('acme', 'admin').post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'acme-only' }, data: { v: 'A-MARKER' } })).status, 201);
    const b = await h.http('globex', 'admin').get('/api/v1/namespaces/web/configmaps/acme-only', { 'Impersonate-User': 'admin' });
    assert.equal(b.status, 404, b.text);
    const list = await h.http('globex', 'admin').get('/api/v1/configmaps', { 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.text.includes('A-MARKER'), false);
  });

  it('adversarial: an exec upgrade goes through the same filter (refused before any upgrade)', async () => {
    const exec = '/api/v1/namespaces/web/pods/p/exec?command=ls&stdout=true';
    const open = async (headers: Record<string, string>) => {
      const { req, res } = await h.http('acme', 'dev').open('POST', exec, { headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', ...headers }, timeoutMs: 15_000 });
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      req.destroy();
      return { status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: string } };
    };
    const denied = await open({ 'Impersonate-User': 'admin' });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.message, 'users "admin" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope');
    // Allowed to act as viewer, the exec is then judged for viewer, not dev.
    const asViewer = await open({ 'Impersonate-User': 'viewer' });
    assert.equal(asViewer.status, 403);
    assert.match(asViewer.body.message, /User "viewer" cannot create resource "pods\/exec"/);
  });

  it('roleRef is immutable: changing it on update is kube\'s 422, in tenant terms', async () => {
    const a = h.http('acme', 'admin');
    const rb = (name: string) => ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'fixed', namespace: 'web' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'dev' }], roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name } });
    assert.equal((await a.post(`/apis/${RBAC}/v1/namespaces/web/rolebindings`, rb('view'))).status, 201);
    const r = await a.request('PUT', `/apis/${RBAC}/v1/namespaces/web/rolebindings/fixed`, { body: rb('edit') });
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /cannot change roleRef/);
    assert.equal(r.text.includes('acme01-'), false, r.text);
  });

  it('the RBAC objects the test wrote are the tenant\'s own (sanity: visible to its admin)', async () => {
    const r = await h.http('acme', 'admin').get(`/apis/${RBAC}/v1/clusterrolebindings/dev-impersonates`);
    assert.equal(r.status, 200, r.text);
  });
});
