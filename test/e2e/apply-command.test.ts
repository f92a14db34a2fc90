// `warren apply` end to end: GitOps onboarding against a `warren up` child (one
// member). Server-side apply with field manager warren, kubectl's words
// (created/configured/unchanged), --wait with progress and the reason a Tenant
// is not Ready; plain `kubectl apply -f` on the host onboards just as well.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/poll.ts';
import { ensureStopped, freePortBase, kubectlAs, startUp, TENANTS_DIR, warren, type RunResult, type UpProcess } from '../fixtures/up/warren-up-process.ts';

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

const tenantYaml = (name: string, extra = ''): string => `apiVersion: tenancy.warren.dev/v1alpha1
kind: Tenant
metadata:
  name: ${name}
spec:
  users:
    - name: admin
      admin: true
${extra}`;

describe('warren apply', { timeout: 240_000 }, () => {
  let dir: string;
  let up: UpProcess | undefined;
  let host: ReturnType<typeof kubectlAs>;
  const apply = (...args: string[]): Promise<RunResult> => warren(['apply', '--data-dir', join(dir, 'up'), ...args], 120_000);
  const write = (folder: string, file: string, text: string): string => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, file), text);
    return join(dir, folder);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warren-e2e-apply-'));
    up = startUp({ dataDir: join(dir, 'up'), portBase: await freePortBase(1), members: 1, timeoutMs: 90_000 });
    await up.summary;
    host = kubectlAs(join(dir, 'up', 'admin.kubeconfig'));
  });

  after(async () => {
    await ensureStopped(up);
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-applying the examples right after up is quiet: warren apply and kubectl apply both find them unchanged', async () => {
    assert.equal(ok(await apply('-f', TENANTS_DIR), 'apply tenants/'), 'tenant/acme unchanged\ntenant/globex unchanged\n');
    assert.equal(ok(await apply('-f', TENANTS_DIR), 'apply tenants/ again'), 'tenant/acme unchanged\ntenant/globex unchanged\n');
    const byKubectl = await host(['apply', '-f', TENANTS_DIR]);
    assert.equal(byKubectl.code, 0, byKubectl.stderr);
    assert.equal(byKubectl.stdout, 'tenant.tenancy.warren.dev/acme unchanged\ntenant.tenancy.warren.dev/globex unchanged\n');
    assert.equal(byKubectl.stderr, '', 'no "missing the kubectl.kubernetes.io/last-applied-configuration annotation" warning');
    const acme = JSON.parse(ok(await host(['get', 'tenants.tenancy.warren.dev', 'acme', '-o', 'json', '--show-managed-fields']), 'get tenant'));
    assert.ok(acme.metadata.managedFields.some((m: { manager: string; operation: string }) => m.manager === 'warren' && m.operation === 'Apply'), 'server-side applied by field manager warren');
  });

  it('creates a new tenant and --wait shows its onboarding until Ready; edits say configured', async () => {
    const folder = write('gitops', 'initech.yaml', tenantYaml('initech', '  displayName: Initech\n'));
    const out = ok(await apply('-f', folder, '--wait', '--timeout', '60'), 'apply --wait');
    const lines = out.trimEnd().split('\n');
    assert.equal(lines[0], 'tenant/initech created');
    assert.match(lines[1] ?? '', /^ {2}\[ *\d+\.\ds\] waiting for 1 tenant to be Ready \(timeout 60s\)$/);
    assert.match(out, /\] tenant\/initech: Ready \(id [a-z][a-z0-9]{5}\)\n/);
    assert.match(lines.at(-1) ?? '', /\] tenant\/initech Ready$/);
    assert.equal(ok(await apply('-f', folder), 'apply unchanged'), 'tenant/initech unchanged\n');
    write('gitops', 'initech.yaml', tenantYaml('initech', '  displayName: Initech Corp\n'));
    const edited = ok(await apply('-f', folder, '--wait'), 'apply edited');
    assert.match(edited, /^tenant\/initech configured\n/);
    assert.match(edited, /\] tenant\/initech Ready\n$/, 'waits for the controller to see the new generation');
    assert.equal(JSON.parse(ok(await host(['get', 'tenants.tenancy.warren.dev', 'initech', '-o', 'json']), 'get')).spec.displayName, 'Initech Corp');
  });

  it('--wait stops at a spec the controller refuses and prints why, from the conditions', async () => {
    const folder = write('invalid', 'short.yaml', tenantYaml('shortlived', '  credentials:\n    certificateLifetime: 1s\n'));
    const r = await apply('-f', folder, '--wait', '--timeout', '60');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^tenant\/shortlived created\n/);
    assert.match(r.stdout, /tenant\/shortlived is not Ready:\n.*Ready=False InvalidSpec: spec\.credentials\.certificateLifetime: must be at least/);
    assert.match(r.stderr, /not Ready: tenant\/shortlived/);
  });

  it('--wait stops at once at a duplicate spec.id, with the reason (an IdConflict stays until someone edits a Tenant)', async () => {
    const acmeId = ok(await host(['get', 'tenants.tenancy.warren.dev', 'acme', '-o', 'jsonpath={.status.id}']), 'acme id');
    const folder = write('dupid', 'copycat.yaml', tenantYaml('copycat', `  id: ${acmeId}\n`));
    const started = Date.now();
    // The timeout is far longer than a stop at once may take even on a loaded machine.
    const r = await apply('-f', folder, '--wait', '--timeout', '100');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(Date.now() - started < 90_000, 'did not wait out the timeout');
    assert.match(r.stdout, /tenant\/copycat is not Ready:\n.*IdConflict/);
    assert.match(r.stderr, /not Ready: tenant\/copycat/);
  });

  it('a server refusal fails that object, not the others', async () => {
    const folder = write('mixed', 'a-bad.yaml', tenantYaml('badid', '  id: "X"\n'));
    write('mixed', 'b-good.yaml', tenantYaml('goodone'));
    const r = await apply('-f', folder);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'tenant/goodone created\n');
    assert.match(r.stderr, /tenant\/badid: .*spec\.id/);
  });

  it('refuses kinds it does not handle before sending anything', async () => {
    const folder = write('other', 'a.yaml', tenantYaml('neverapplied'));
    write('other', 'b.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
    const r = await apply('-f', folder);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /b\.yaml: ConfigMap v1 "c": warren apply takes Tenants and Karmada Clusters; use kubectl apply/);
    assert.equal((await host(['get', 'tenants.tenancy.warren.dev', 'neverapplied'])).code, 1, 'nothing was applied');
  });

  it('applies a Karmada Cluster registration the same way', async () => {
    const cluster = JSON.parse(ok(await host(['get', 'clusters.cluster.karmada.io', 'member1', '-o', 'json']), 'get cluster'));
    const manifest = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1', labels: { tier: 'gold' } }, spec: { ...cluster.spec } };
    const folder = write('clusters', 'member1.json', JSON.stringify(manifest));
    assert.equal(ok(await apply('-f', folder), 'apply cluster'), 'cluster/member1 configured\n');
    assert.equal(ok(await apply('-f', folder), 'apply cluster again'), 'cluster/member1 unchanged\n');
    const after = JSON.parse(ok(await host(['get', 'clusters.cluster.karmada.io', 'member1', '-o', 'json']), 'get cluster'));
    assert.equal(after.metadata.labels.tier, 'gold');
  });

  it('plain kubectl apply -f on the host is the whole onboarding too', async () => {
    const folder = write('kubectl', 'hooli.yaml', tenantYaml('hooli'));
    ok(await host(['apply', '-f', folder]), 'kubectl apply');
    await eventually(async () => {
      const r = await host(['get', 'tenants.tenancy.warren.dev', 'hooli', '-o', 'jsonpath={.status.phase}']);
      return r.stdout === 'Ready';
    }, 'hooli Ready', { timeoutMs: 60_000, intervalMs: 300 });
    const kubeconfig = join(dir, 'hooli.kubeconfig');
    writeFileSync(kubeconfig, ok(await warren(['tenant', 'kubeconfig', 'hooli', '--data-dir', join(dir, 'up')]), 'tenant kubeconfig'), { mode: 0o600 });
    assert.match(ok(await kubectlAs(kubeconfig)(['get', 'namespaces', '-o', 'name']), 'tenant get ns'), /namespace\/default/);
  });

  it('tenant create --wait shows progress lines too', async () => {
    const out = ok(await warren(['tenant', 'create', 'umbrella', '--admin', 'ada', '--wait', '--data-dir', join(dir, 'up')]), 'tenant create --wait');
    assert.match(out, /^tenant\/umbrella created\nwaiting for tenant\/umbrella to be Ready\.\.\.\n/);
    assert.match(out, /\n {2}\[ *\d+\.\ds\] tenant\/umbrella: Ready \(id [a-z][a-z0-9]{5}\)\n/);
  });
});
