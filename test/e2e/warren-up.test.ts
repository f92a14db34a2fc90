// `warren up` from an empty data dir, as a child process on free ports, driven
// with real kubectl: both example tenants Ready (and /readyz 200 only then),
// each admin sees only its own world, the restricted user is refused, quota,
// suspension and resumption, and a SIGINT + second `up` on the same dir keeps
// every tenant, object and credential. Revocation, expiry and deletion are in
// tenant-lifecycle.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/poll.ts';
import {
  ensureStopped, freePortBase, interrupt, kubectlAs, readText, startUp, table, warren,
  type RunResult, type UpProcess,
} from '../fixtures/up/warren-up-process.ts';

const MEMBERS = 2;
const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
const ID = /[a-z][a-z0-9]{5}/.source;

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}
function refused(r: RunResult, what: string): string {
  assert.notEqual(r.code, 0, `${what} should have failed:\n${r.stdout}`);
  return r.stderr;
}
const names = (out: string): string[] => table(out).slice(1).map((r) => r[0] ?? '');

/** The tenant ids from `up`'s progress lines ("tenant acme Ready (id abc123)"). */
function readyIds(stdout: string): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const m of stdout.matchAll(new RegExp(`tenant (\\S+) Ready \\(id (${ID})\\)`, 'g'))) ids[m[1]!] = m[2]!;
  return ids;
}

/**
 * /readyz never said 200 before both tenants were Ready, and says 200 afterwards.
 * With `expectNotReadyAnswer`, the gateway was also seen listening and answering
 * not-ready (kube-apiserver answers a failed readyz with 500, and so does Warren):
 * on a first start onboarding takes about a second, some 25 probes.
 */
async function assertReadyzGated(up: UpProcess, expectNotReadyAnswer: boolean): Promise<void> {
  await eventually(async () => up.readyz.some((s) => s.status === 200), '/readyz to answer 200', { timeoutMs: 5_000 });
  const first200 = up.readyz.findIndex((s) => s.status === 200);
  const early = up.readyz[first200]!;
  assert.match(early.stdoutSoFar, /tenant acme Ready/, 'readyz said 200 before acme was Ready');
  assert.match(early.stdoutSoFar, /tenant globex Ready/, 'readyz said 200 before globex was Ready');
  const before200 = up.readyz.slice(0, first200).map((s) => s.status);
  assert.ok(before200.length > 0, 'the probe saw nothing before the first 200');
  assert.ok(before200.every((s) => s !== 200));
  if (expectNotReadyAnswer) assert.ok(before200.includes(500), `no not-ready answer seen: ${JSON.stringify([...new Set(before200)])}`);
}

describe('warren up from an empty data dir', { timeout: 180_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'warren-up-e2e-'));
  const dir = join(root, 'data');
  let portBase = 0;
  let up: UpProcess | undefined;
  let ids: Record<string, string> = {};
  const acmeKc = join(dir, 'tenants/acme.kubeconfig');
  const globexKc = join(dir, 'tenants/globex.kubeconfig');
  const adminKc = join(dir, 'admin.kubeconfig');
  const acme = kubectlAs(acmeKc);
  const globex = kubectlAs(globexKc);
  const globex127 = kubectlAs(globexKc, '1.27');
  const host = kubectlAs(adminKc);

  before(async () => {
    portBase = await freePortBase(MEMBERS);
    up = startUp({ dataDir: dir, portBase, members: MEMBERS, extraArgs: ['--audit-log-path', join(dir, 'audit.log')] });
    await up.summary;
    ids = readyIds(up.stdout());
  });
  after(async () => {
    await ensureStopped(up);
    rmSync(root, { recursive: true, force: true });
  });

  it('brings both example tenants to Ready, prints one summary, and /readyz answers 200 only then', async () => {
    const out = up!.stdout();
    assert.deepEqual(Object.keys(ids).sort(), ['acme', 'globex'], out);
    assert.notEqual(ids.acme, ids.globex);
    assert.match(out, new RegExp(`^Warren is up\\. Gateway: https://127\\.0\\.0\\.1:${portBase}$`, 'm'));
    assert.equal(out.match(/^Warren is up\./gm)?.length, 1, 'one summary');
    assert.match(out, new RegExp(`^  acme \\(id ${ids.acme}, admin alice\\):  \\S+/tenants/acme\\.kubeconfig$`, 'm'));
    assert.match(out, new RegExp(`^  globex \\(id ${ids.globex}, admin hank\\):  \\S+/tenants/globex\\.kubeconfig$`, 'm'));
    for (const f of ['admin.kubeconfig', 'members/member1.kubeconfig', 'members/member2.kubeconfig', 'tenants/acme.kubeconfig', 'tenants/globex.kubeconfig']) {
      assert.ok(existsSync(join(dir, f)), `${f} written`);
    }
    await assertReadyzGated(up!, true);
    const rows = table(ok(await host(['get', 'tenants']), 'get tenants'));
    assert.deepEqual(rows, [['NAME', 'ID', 'PHASE', 'AGE'], ['acme', ids.acme!, 'Ready', rows[1]![3]!], ['globex', ids.globex!, 'Ready', rows[2]![3]!]]);
  });

  it('each tenant admin sees only its own world', async () => {
    const acmeNs = table(ok(await acme(['get', 'ns']), 'acme get ns'));
    assert.deepEqual(acmeNs[0], ['NAME', 'STATUS', 'AGE']);
    assert.deepEqual(acmeNs.slice(1).map((r) => r.slice(0, 2)), SYSTEM_NAMESPACES.map((n) => [n, 'Active']));
    // kubectl 1.27 too, for the other tenant.
    assert.deepEqual(names(ok(await globex127(['get', 'ns']), 'globex get ns (1.27)')), SYSTEM_NAMESPACES);

    assert.equal(ok(await acme(['create', 'namespace', 'shop']), 'create ns'), 'namespace/shop created\n');
    assert.equal(ok(await acme(['create', 'deployment', 'web', '--image=nginx', '-n', 'shop']), 'create deploy'), 'deployment.apps/web created\n');
    assert.equal(ok(await acme(['run', 'p1', '--image=nginx', '-n', 'shop']), 'run pod'), 'pod/p1 created\n');

    // The other tenant sees none of it, and can use the same names without collision.
    assert.deepEqual(names(ok(await globex(['get', 'ns']), 'globex get ns')), SYSTEM_NAMESPACES);
    assert.equal(refused(await globex(['get', 'ns', 'shop']), 'globex get ns shop'), 'Error from server (NotFound): namespaces "shop" not found\n');
    const gPods = await globex(['get', 'pods', '-A']);
    assert.equal(gPods.stdout, '');
    assert.equal(gPods.stderr, 'No resources found\n');
    assert.equal((await globex(['get', 'deployments', '-A'])).stderr, 'No resources found\n');
    assert.equal(ok(await globex(['create', 'namespace', 'shop']), 'globex create ns shop'), 'namespace/shop created\n');
    assert.equal((await globex(['get', 'deployments', '-n', 'shop'])).stderr, 'No resources found in shop namespace.\n');

    const pods = table(ok(await acme(['get', 'pods', '-A']), 'acme get pods -A'));
    assert.deepEqual(pods[0], ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    assert.ok(pods.slice(1).every((r) => r[0] === 'shop'), JSON.stringify(pods));
    assert.ok(pods.some((r) => r[1] === 'p1'));
    const deploys = table(ok(await acme(['get', 'deployments', '-A']), 'acme get deploy -A'));
    assert.deepEqual(deploys.map((r) => r.slice(0, 2)), [['NAMESPACE', 'NAME'], ['shop', 'web']]);
    // The acme namespace list now has shop, globex's also has its own shop: neither output shows an id.
    assert.deepEqual(names(ok(await acme(['get', 'ns']), 'acme get ns')), [...SYSTEM_NAMESPACES, 'shop'].sort());
    const everything = ok(await acme(['get', 'all', '-A']), 'acme get all -A') + ok(await globex(['get', 'all', '-A', '-o', 'yaml']), 'globex get all');
    assert.doesNotMatch(everything, new RegExp(`${ids.acme}|${ids.globex}`));
  });

  it('keeps its logs in DIR/warren.log without --verbose, and the gateway audit in --audit-log-path', async () => {
    assert.match(up!.stdout(), new RegExp(`^Logs: \\S+/warren\\.log   Audit: \\S+/audit\\.log$`, 'm'));
    const logLines = readFileSync(join(dir, 'warren.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { level: string; msg?: string; component: string });
    assert.ok(logLines.length > 0 && logLines.every((l) => ['debug', 'info', 'warn', 'error'].includes(l.level) && l.component === 'warren'), 'JSON lines with a level');
    assert.equal(up!.stderr().match(/"level":/g), null, 'nothing on stderr without --verbose');
    ok(await acme(['get', 'configmaps', '-n', 'default']), 'acme get cm');
    const events = await eventually(async () => {
      const text = existsSync(join(dir, 'audit.log')) ? readFileSync(join(dir, 'audit.log'), 'utf8') : '';
      const parsed = text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; apiVersion: string; verb: string; user: { username: string }; objectRef?: { resource?: string; namespace?: string } });
      return parsed.some((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'list') ? parsed : undefined;
    }, 'the list of configmaps in the audit log', { timeoutMs: 30_000, intervalMs: 200 });
    const list = events.find((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'list')!;
    assert.deepEqual([list.apiVersion, list.kind, list.objectRef?.namespace], ['audit.k8s.io/v1', 'Event', 'default']);
    assert.match(list.user.username, /alice/);
  });

  it('namespaces a tenant creates carry its Pod Security level upstream', async () => {
    const labels = JSON.parse(ok(await host(['get', 'namespace', `${ids.acme}-shop`, '-o', 'jsonpath={.metadata.labels}']), 'upstream ns labels')) as Record<string, string>;
    assert.equal(labels['pod-security.kubernetes.io/enforce'], 'baseline', JSON.stringify(labels));
  });

  it('the restricted user is refused what its roles do not allow', async () => {
    const bobKc = join(root, 'bob.kubeconfig');
    writeFileSync(bobKc, ok(await warren(['tenant', 'kubeconfig', 'acme', '--user', 'bob', '--data-dir', dir]), 'kubeconfig bob'), { mode: 0o600 });
    const bob = kubectlAs(bobKc);
    assert.equal(refused(await bob(['create', 'namespace', 'bobs']), 'bob create ns'),
      'Error from server (Forbidden): namespaces is forbidden: User "bob" cannot create resource "namespaces" in API group "" at the cluster scope\n');
    assert.equal(refused(await bob(['get', 'pods', '-n', 'shop']), 'bob get pods'),
      'Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "shop"\n');
    const can = await bob(['auth', 'can-i', 'create', 'namespaces']);
    assert.deepEqual([can.code, can.stdout], [1, 'no\n']);
    // Nothing was created behind the refusal.
    assert.deepEqual(names(ok(await acme(['get', 'ns']), 'acme get ns')), [...SYSTEM_NAMESPACES, 'shop'].sort());

    const frankKc = join(root, 'frank.kubeconfig');
    writeFileSync(frankKc, ok(await warren(['tenant', 'kubeconfig', 'globex', '--user', 'frank', '--data-dir', dir]), 'kubeconfig frank'), { mode: 0o600 });
    assert.equal(refused(await kubectlAs(frankKc, '1.27')(['get', 'namespaces']), 'frank get ns (1.27)'),
      'Error from server (Forbidden): namespaces is forbidden: User "frank" cannot list resource "namespaces" in API group "" at the cluster scope\n');
  });

  it('quota: lowering acme to 5 namespaces refuses the 6th with a ResourceQuota-like 403', async () => {
    assert.equal(ok(await host(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"quota":{"namespaces":5}}}']), 'patch quota'), 'tenant.tenancy.warren.dev/acme patched\n');
    try {
      let have = names(ok(await acme(['get', 'ns']), 'get ns')).length;
      for (let i = 0; have < 5; i++, have++) assert.equal(ok(await acme(['create', 'namespace', `q${i}`]), `create q${i}`), `namespace/q${i} created\n`);
      const sixth = await eventually(async () => {
        const r = await acme(['create', 'namespace', 'sixth']);
        if (r.code === 0) await acme(['delete', 'namespace', 'sixth', '--wait=false']);
        return r.code !== 0 ? r : undefined;
      }, 'the 6th namespace to be refused', { timeoutMs: 10_000, intervalMs: 500 });
      assert.match(sixth.stderr, /^Error from server \(Forbidden\): .*exceeded quota: .*requested: .*namespaces=1.*used: .*namespaces=5.*limited: .*namespaces=5/m);
      assert.doesNotMatch(sixth.stderr, new RegExp(ids.acme!));
      const usage = ok(await host(['get', 'tenant', 'acme', '-o', 'jsonpath={.status.usage.namespaces}']), 'usage');
      assert.equal(usage, '5');
    } finally {
      // Leave the tenant as the later tests expect it, whether or not the gateway enforced the limit.
      await host(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"quota":{"namespaces":20}}}']);
      await acme(['delete', 'namespace', 'sixth', 'q0', '--ignore-not-found', '--wait=true'], 60_000);
    }
  });

  it('suspension refuses writes with a clear 403, keeps reads, and lifting it resumes writes', async () => {
    assert.equal(ok(await host(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"suspended":true}}']), 'suspend'), 'tenant.tenancy.warren.dev/acme patched\n');
    const suspendedMsg = 'Error from server (Forbidden): tenant "acme" is suspended: writes are refused until the suspension is lifted; reads still work\n';
    const refusal = await eventually(async () => {
      const r = await acme(['create', 'namespace', 'during-suspension']);
      return r.code !== 0 ? r : undefined;
    }, 'writes to be refused', { timeoutMs: 10_000, intervalMs: 300 });
    assert.equal(refusal.stderr, suspendedMsg);
    assert.equal(refused(await acme(['delete', 'deployment', 'web', '-n', 'shop']), 'delete while suspended'), suspendedMsg);
    assert.equal(refused(await acme(['scale', 'deployment', 'web', '-n', 'shop', '--replicas=2']), 'scale while suspended'), suspendedMsg);
    assert.equal(ok(await host(['get', 'tenant', 'acme', '-o', 'jsonpath={.status.phase}']), 'phase'), 'Suspended');
    // Reads still work, and the other tenant is untouched.
    assert.deepEqual(names(ok(await acme(['get', 'ns']), 'get ns while suspended')), [...SYSTEM_NAMESPACES, 'shop'].sort());
    assert.deepEqual(names(ok(await acme(['get', 'deployments', '-n', 'shop']), 'get deploy while suspended')), ['web']);
    assert.equal(ok(await globex(['create', 'configmap', 'c1', '-n', 'shop', '--from-literal=a=b']), 'globex write'), 'configmap/c1 created\n');

    assert.equal(ok(await host(['patch', 'tenant', 'acme', '--type', 'merge', '-p', '{"spec":{"suspended":false}}']), 'resume'), 'tenant.tenancy.warren.dev/acme patched\n');
    const created = await eventually(async () => {
      const r = await acme(['create', 'configmap', 'after-resume', '-n', 'shop', '--from-literal=a=b']);
      return r.code === 0 ? r : undefined;
    }, 'writes to work again', { timeoutMs: 10_000, intervalMs: 300 });
    assert.equal(created.stdout, 'configmap/after-resume created\n');
    assert.equal(ok(await host(['get', 'tenant', 'acme', '-o', 'jsonpath={.status.phase}']), 'phase'), 'Ready');
  });

  it('SIGINT stops cleanly; a second up on the same dir keeps tenants, objects and credentials', async () => {
    const kubeconfigBefore = readText(acmeKc);
    const issuedBefore = ok(await warren(['tenant', 'kubeconfig', 'acme', '--data-dir', dir]), 'kubeconfig before');
    assert.equal(issuedBefore, kubeconfigBefore, 'up wrote the Secret\'s kubeconfig');
    const stopped = await interrupt(up!);
    assert.equal(stopped.code, 0, `exit code\n${up!.stderr()}`);
    assert.ok(stopped.ms < 5_000, `took ${stopped.ms} ms to stop`);
    assert.match(up!.stdout(), /^stopping\.\.\.$/m);
    assert.equal(up!.stderr(), '');

    up = startUp({ dataDir: dir, portBase, members: MEMBERS, extraArgs: ['--audit-log-path', join(dir, 'audit.log')] });
    await up.summary;
    assert.deepEqual(readyIds(up.stdout()), ids, 'same ids after restart');
    await assertReadyzGated(up, false);
    assert.equal(readText(acmeKc), kubeconfigBefore, 'no credential change on restart');
    assert.equal(ok(await warren(['tenant', 'kubeconfig', 'acme', '--data-dir', dir]), 'kubeconfig after'), issuedBefore);
    assert.deepEqual(names(ok(await acme(['get', 'ns']), 'get ns after restart')), [...SYSTEM_NAMESPACES, 'shop'].sort());
    assert.deepEqual(table(ok(await acme(['get', 'deployments', '-n', 'shop']), 'get deploy after restart')).map((r) => r[0]), ['NAME', 'web']);
    assert.deepEqual(names(ok(await acme(['get', 'configmaps', '-n', 'shop']), 'get cm after restart')).filter((n) => n !== 'kube-root-ca.crt'), ['after-resume']);
    assert.equal(ok(await acme(['create', 'namespace', 'after-restart']), 'write after restart'), 'namespace/after-restart created\n');
    assert.deepEqual(names(ok(await globex(['get', 'configmaps', '-n', 'shop']), 'globex cm')).filter((n) => n !== 'kube-root-ca.crt'), ['c1']);
  });
});
