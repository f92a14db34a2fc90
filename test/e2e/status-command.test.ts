// `warren status` end to end: a `warren up` child with two members, tenant acme
// propagates Karmada's quick-start nginx with real kubectl through the gateway,
// and status (text and -o json), read from the host, shows the tenants, the
// members and where acme's replicas run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/poll.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';
import { ensureStopped, freePortBase, kubectlAs, startUp, table, warren, type RunResult, type UpProcess } from '../fixtures/up/warren-up-process.ts';
import type { StatusReport } from '../../src/cli/status-report.ts';

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** The rows of one section of the text output (from its heading to the blank line). */
function section(text: string, heading: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(heading));
  assert.ok(start >= 0, `no ${heading} section in:\n${text}`);
  const end = lines.indexOf('', start);
  return table(lines.slice(start + 1, end < 0 ? undefined : end).join('\n'));
}

describe('warren status', { timeout: 180_000 }, () => {
  let dir: string;
  let up: UpProcess | undefined;
  const status = (...args: string[]): Promise<RunResult> => warren(['status', '--data-dir', join(dir, 'up'), ...args]);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warren-e2e-status-'));
    up = startUp({ dataDir: join(dir, 'up'), portBase: await freePortBase(2), members: 2, timeoutMs: 90_000 });
    await up.summary;
  });

  after(async () => {
    await ensureStopped(up);
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the tenants with phase, usage against quota and allowed clusters, and the members', async () => {
    const text = ok(await status(), 'status');
    const tenants = section(text, 'TENANTS');
    assert.deepEqual(tenants[0], ['NAME', 'ID', 'PHASE', 'NAMESPACES', 'CPU', 'MEMORY', 'STORAGE', 'OBJECTS', 'CLUSTERS']);
    const acme = tenants.find((r) => r[0] === 'acme');
    assert.ok(acme, text);
    assert.match(acme[1] ?? '', /^[a-z][a-z0-9]{5}$/);
    assert.equal(acme[2], 'Ready');
    assert.match(acme[3] ?? '', /^\d+\/20$/, 'namespaces used against tenants/acme.yaml quota');
    assert.equal(acme[8], 'member1,member2');
    assert.equal(tenants.find((r) => r[0] === 'globex')?.[2], 'Ready');
    const members = await eventually(async () => {
      const rows = section(ok(await status(), 'status'), 'MEMBERS');
      return rows.slice(1).every((r) => r[2] === 'True') ? rows : undefined;
    }, 'both members Ready', { timeoutMs: 60_000, intervalMs: 500 });
    assert.deepEqual(members.map((r) => r[0]), ['NAME', 'member1', 'member2']);
    assert.match(members[1]?.[1] ?? '', /^v1\.\d+\.\d+$/);
    assert.equal(members[1]?.[4], '<none>', 'no taints on a healthy member');
  });

  it('shows where a tenant\'s replicas run once it propagates a Deployment, in the tenant\'s terms', async () => {
    const acme = kubectlAs(join(dir, 'up', 'tenants', 'acme.kubeconfig'));
    ok(await acme(['apply', '-f', join(REPO_ROOT, 'test/fixtures/karmada/deployment.yaml'), '-f', join(REPO_ROOT, 'test/fixtures/karmada/propagationpolicy.yaml')]), 'kubectl apply');
    const rows = await eventually(async () => {
      const got = section(ok(await status(), 'status'), 'BINDINGS');
      return got.find((r) => r[2] === 'nginx-deployment' && r[7] === 'True') ? got : undefined;
    }, 'the nginx binding to be FullyApplied', { timeoutMs: 60_000, intervalMs: 500 });
    assert.deepEqual(rows[0], ['TENANT', 'NAMESPACE', 'NAME', 'RESOURCE', 'REPLICAS', 'CLUSTERS', 'SCHEDULED', 'FULLYAPPLIED']);
    assert.deepEqual(rows.find((r) => r[2] === 'nginx-deployment'), ['acme', 'default', 'nginx-deployment', 'Deployment/nginx', '2', 'member1:1,member2:1', 'True', 'True']);
    assert.equal(rows.filter((r) => r[0] === 'globex').length, 0, 'globex propagated nothing');
  });

  it('-o json carries the same picture as structured data', async () => {
    const report = JSON.parse(ok(await status('-o', 'json'), 'status -o json')) as StatusReport;
    const acme = report.tenants.find((t) => t.name === 'acme');
    assert.deepEqual(acme?.usage.namespaces?.limit, 20);
    assert.equal(typeof acme?.usage.namespaces?.used, 'number');
    assert.deepEqual(report.members.map((m) => m.name), ['member1', 'member2']);
    const nginx = report.bindings.find((b) => b.name === 'nginx-deployment');
    assert.deepEqual(nginx?.clusters, [{ name: 'member1', replicas: 1 }, { name: 'member2', replicas: 1 }]);
    assert.equal(nginx?.namespace, 'default');
    assert.equal(nginx?.tenant, 'acme');
  });

  it('refuses an unknown output format and a missing host', async () => {
    const bad = await status('-o', 'yaml');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /-o must be text or json/);
    const none = await warren(['status', '--data-dir', join(dir, 'nowhere')]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no host kubeconfig/);
    // A tenant's kubeconfig reaches the gateway, which serves tenants no Tenant API: not "No tenants".
    const asTenant = await warren(['status', '--kubeconfig', join(dir, 'up', 'tenants', 'acme.kubeconfig')]);
    assert.equal(asTenant.code, 1, asTenant.stdout);
    assert.match(asTenant.stderr, /needs the host cluster's admin kubeconfig/);
    assert.doesNotMatch(asTenant.stdout, /No tenants/);
  });
});
