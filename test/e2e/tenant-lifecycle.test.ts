// Tenant credentials and deletion end to end, on a `warren up` child process
// with real kubectl: revocation (the old kubeconfig gets 401, the re-issued one
// works), expiry with a 6 s certificate lifetime (the old certificate stops
// working, the Secret's kubeconfig is rotated), and deletion (credentials stop
// at once; every listable upstream resource, found through discovery, holds
// nothing of the tenant).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { eventually } from '../helpers/poll.ts';
import {
  ensureStopped, freePortBase, kubectlAs, readText, startUp, table, warren,
  type RunResult, type UpProcess,
} from '../fixtures/up/warren-up-process.ts';
import { leftovers, listEverything } from '../helpers/upstream-leftovers.ts';

const MEMBERS = 1;
const UNAUTHORIZED = 'error: You must be logged in to the server (Unauthorized)\n';

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** The client certificate inside a kubeconfig. */
function certOf(kubeconfig: string): X509Certificate {
  const doc = parse(kubeconfig) as { users: Array<{ user: Record<string, string> }> };
  const data = doc.users[0]?.user['client-certificate-data'];
  assert.ok(data, 'kubeconfig has client-certificate-data');
  return new X509Certificate(Buffer.from(data, 'base64'));
}

// The suite's deadline covers all its tests; at load 28 they took 205 s and the old 180 s cut the
// deletion test off mid-way (the warren up was stopped under it). Each wait has its own deadline.
describe('tenant lifecycle on warren up: revocation, expiry, deletion', { timeout: 600_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'warren-lifecycle-e2e-'));
  const dir = join(root, 'data');
  let up: UpProcess | undefined;
  let expired: RunResult | undefined;
  const host = kubectlAs(join(dir, 'admin.kubeconfig'));
  const save = (file: string, text: string): string => { const p = join(root, file); writeFileSync(p, text, { mode: 0o600 }); return p; };
  const idOf = async (tenant: string): Promise<string> => ok(await host(['get', 'tenant', tenant, '-o', 'jsonpath={.status.id}']), `id of ${tenant}`);

  before(async () => {
    up = startUp({ dataDir: dir, portBase: await freePortBase(MEMBERS), members: MEMBERS });
    await up.summary;
  });
  after(async () => {
    await ensureStopped(up);
    rmSync(root, { recursive: true, force: true });
  });

  it('revocation: every earlier acme credential gets 401 at once; the re-issued kubeconfig works', async () => {
    const oldAdmin = save('acme-old.kubeconfig', readText(join(dir, 'tenants/acme.kubeconfig')));
    const oldBob = save('bob-old.kubeconfig', ok(await warren(['tenant', 'kubeconfig', 'acme', '--user', 'bob', '--data-dir', dir]), 'bob kubeconfig'));
    ok(await kubectlAs(oldAdmin)(['get', 'ns']), 'old admin before revoke');

    const revoke = ok(await warren(['tenant', 'revoke', 'acme', '--data-dir', dir]), 'revoke');
    assert.match(revoke, /^tenant\/acme: every credential issued before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is revoked; new ones are being issued\n$/);
    for (const [who, kc] of [['admin', oldAdmin], ['bob', oldBob]] as const) {
      const r = await kubectlAs(kc)(['get', 'ns']);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', UNAUTHORIZED], `old ${who} kubeconfig`);
    }
    // kubectl 1.27 says the same.
    assert.equal((await kubectlAs(oldAdmin, '1.27')(['get', 'ns'])).stderr, UNAUTHORIZED);

    const reissued = await eventually(async () => {
      const kc = ok(await warren(['tenant', 'kubeconfig', 'acme', '--data-dir', dir]), 'kubeconfig after revoke');
      return kc !== readText(oldAdmin) ? kc : undefined;
    }, 'a re-issued acme kubeconfig', { timeoutMs: 15_000, intervalMs: 300 });
    const rows = table(ok(await kubectlAs(save('acme-new.kubeconfig', reissued))(['get', 'ns']), 're-issued kubeconfig'));
    assert.deepEqual(rows.map((r) => r[0]), ['NAME', 'default', 'kube-node-lease', 'kube-public', 'kube-system']);
    // The other tenant is untouched.
    ok(await kubectlAs(join(dir, 'tenants/globex.kubeconfig'))(['get', 'ns']), 'globex after acme revoke');
  });

  it('expiry: a 6 s certificate stops working after notAfter, and the Secret\'s kubeconfig is rotated', async () => {
    const created = await warren(['tenant', 'create', 'expiring', '--admin', 'ed', '--data-dir', dir, '--wait', '--kubeconfig-out', join(root, 'ed-720h.kubeconfig')], 90_000);
    const id = await idOf('expiring');
    // Progress lines ("[  0.0s] tenant/expiring: Pending: ...") come between; the rest is exact.
    const lines = ok(created, 'tenant create').split('\n').filter((l) => !/^ {2}\[ *\d+\.\ds\] /.test(l));
    assert.deepEqual(lines, [
      'tenant/expiring created', 'waiting for tenant/expiring to be Ready...', `tenant/expiring Ready (id ${id})`,
      `admin kubeconfig for ed written to ${join(root, 'ed-720h.kubeconfig')}`, '',
    ]);
    const first = certOf(readText(join(root, 'ed-720h.kubeconfig')));

    assert.equal(ok(await host(['patch', 'tenant', 'expiring', '--type', 'merge', '-p', '{"spec":{"credentials":{"certificateLifetime":"6s"}}}']), 'patch lifetime'),
      'tenant.tenancy.warren.dev/expiring patched\n');
    // A 6 s certificate that works before its notAfter. Polled as a whole: at load 13-30 reading one
    // and starting kubectl can take longer than it lives (401 "before expiry", 1 run); a later one must work.
    const short = await eventually(async () => {
      const kc = ok(await warren(['tenant', 'kubeconfig', 'expiring', '--data-dir', dir]), 'kubeconfig');
      const cert = certOf(kc);
      if (cert.serialNumber === first.serialNumber) return undefined;
      const lifetimeS = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 1000;
      assert.ok(lifetimeS >= 5 && lifetimeS <= 7, `lifetime ${lifetimeS} s`);
      const path = save('ed-6s.kubeconfig', kc);
      assert.equal(ok(await kubectlAs(path)(['get', 'ns', 'default', '-o', 'name']), 'before expiry'), 'namespace/default\n');
      return { kc, cert, path };
    }, 'a certificate with the 6 s lifetime that works before it expires', { timeoutMs: 60_000, intervalMs: 300 });
    const shortKc = short.path;

    // Wait past notAfter (whole seconds on the certificate), then the same kubeconfig is refused.
    const wait = Date.parse(short.cert.validTo) + 1500 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    expired = await kubectlAs(shortKc)(['get', 'ns', 'default', '-o', 'name']);
    assert.deepEqual([expired.code, expired.stdout], [1, ''], expired.stderr);

    // Rotated: the Secret now holds a newer certificate, which works. Polled: the rotated one lives
    // 6 s too, and at load 30 reading it and starting kubectl took longer (Unauthorized, 1 run);
    // a later rotation must then work.
    await eventually(async () => {
      const current = ok(await warren(['tenant', 'kubeconfig', 'expiring', '--data-dir', dir]), 'kubeconfig after expiry');
      assert.notEqual(current, short.kc);
      assert.ok(Date.parse(certOf(current).validFrom) > Date.parse(short.cert.validFrom), 'a newer certificate');
      assert.equal(ok(await kubectlAs(save('ed-rotated.kubeconfig', current))(['get', 'ns', 'default', '-o', 'name']), 'rotated'), 'namespace/default\n');
      return true;
    }, 'a rotated certificate that works', { timeoutMs: 60_000, intervalMs: 300 });
  });

  it('expiry: the expired certificate gets 401 Unauthorized, as from kube-apiserver', () => {
    assert.ok(expired, 'the expiry test ran');
    assert.equal(expired.stderr, UNAUTHORIZED);
  });

  it('deleting a tenant stops its credentials and leaves zero upstream objects', async () => {
    const id = await idOf('globex');
    const hank = kubectlAs(join(dir, 'tenants/globex.kubeconfig'));
    // Give the deletion something to clean: a namespace, namespaced objects, cluster-scoped RBAC.
    ok(await hank(['create', 'namespace', 'data']), 'create ns');
    ok(await hank(['create', 'configmap', 'settings', '-n', 'data', '--from-literal=a=b']), 'create cm');
    ok(await hank(['create', 'deployment', 'api', '--image=nginx', '-n', 'data']), 'create deploy');
    ok(await hank(['create', 'clusterrole', 'reader', '--verb=get', '--resource=pods']), 'create clusterrole');
    ok(await hank(['create', 'clusterrolebinding', 'reader', '--clusterrole=reader', '--user=frank']), 'create crb');

    // The scan must be able to see a tenant: before deletion it finds globex, and it finds acme throughout.
    const beforeScan = await listEverything(host);
    assert.ok(leftovers(beforeScan.objects, id, 'globex').length > 10, 'the scan sees globex before deletion');

    const deleted = await warren(['tenant', 'delete', 'globex', '--data-dir', dir, '--wait'], 90_000);
    // First and last lines; between them `--wait` prints each phase it sees (`[  0.4s] tenant/globex: Terminating`).
    assert.match(ok(deleted, 'tenant delete'), /^tenant\/globex deleted\n( {2}\[ *\d+\.\ds\] tenant\/globex: \w+\n)*tenant\/globex is gone, with everything it had\n$/);
    const r = await hank(['get', 'ns']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', UNAUTHORIZED]);

    const afterScan = await listEverything(host);
    assert.ok(afterScan.resources.includes('namespaces') && afterScan.resources.includes('secrets') && afterScan.resources.some((n) => n.startsWith('customresourcedefinitions')), afterScan.resources.join(' '));
    assert.deepEqual(leftovers(afterScan.objects, id, 'globex'), []);
    const acmeId = await idOf('acme');
    assert.ok(leftovers(afterScan.objects, acmeId, 'acme').length > 0, 'acme is still there');
    assert.equal((await host(['get', 'tenant', 'globex'])).stderr, 'Error from server (NotFound): tenants.tenancy.warren.dev "globex" not found\n');
  });
});
