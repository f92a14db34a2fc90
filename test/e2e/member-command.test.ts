// `warren member add|list|remove` end to end, against a `warren up` child
// process (one embedded member, which `up` registers itself) and a second
// apiserver child registered by hand; checked with real kubectl on the host.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/poll.ts';
import { startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { ensureStopped, freePortBase, kubectlAs, startUp, table, warren, type RunResult, type UpProcess } from '../fixtures/up/warren-up-process.ts';

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

describe('warren member', { timeout: 420_000 }, () => {
  let dir: string;
  let up: UpProcess | undefined;
  let extra: WarrenProcess | undefined;
  let host: ReturnType<typeof kubectlAs>;
  const member = (args: string[]): Promise<RunResult> => warren(['member', ...args, '--data-dir', join(dir, 'up')]);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warren-e2e-member-'));
    up = startUp({ dataDir: join(dir, 'up'), portBase: await freePortBase(1), members: 1, timeoutMs: 90_000 });
    await up.summary;
    host = kubectlAs(join(dir, 'up', 'admin.kubeconfig'));
    extra = await startWarrenApiserver(join(dir, 'extra'));
  });

  after(async () => {
    await extra?.kill();
    await ensureStopped(up);
    rmSync(dir, { recursive: true, force: true });
  });

  it('warren up registered its member, which turns Ready with a version', async () => {
    const rows = await eventually(async () => {
      const out = table(ok(await member(['list']), 'member list'));
      return out[1]?.[3] === 'True' ? out : undefined;
    }, 'member1 to be Ready', { timeoutMs: 60_000, intervalMs: 500 });
    assert.deepEqual(rows[0], ['NAME', 'VERSION', 'MODE', 'READY', 'AGE']);
    assert.equal(rows[1]?.[0], 'member1');
    assert.match(rows[1]?.[1] ?? '', /^v1\.\d+\.\d+/);
    assert.equal(rows[1]?.[2], 'Push');
    const cluster = JSON.parse(ok(await host(['get', 'clusters.cluster.karmada.io', 'member1', '-o', 'json']), 'get cluster'));
    assert.equal(cluster.spec.provider, 'warren');
    assert.equal(cluster.spec.region, 'region-a');
    assert.equal(cluster.metadata.labels.location, 'region-a');
    assert.deepEqual(cluster.spec.secretRef, { namespace: 'warren-system', name: 'cluster-member1' });
    assert.ok(Number(cluster.status.nodeSummary.totalNum) >= 1, 'the simulator\'s nodes are summed');
    assert.ok(cluster.status.resourceSummary.allocatable.cpu, 'allocatable cpu is kept');
    assert.deepEqual(cluster.spec.taints ?? [], []);
  });

  it('add writes the Secret and the Cluster; kubectl shows Karmada\'s columns', async () => {
    const out = ok(await member(['add', 'extra', '--cluster-kubeconfig', extra!.kubeconfigPath, '--provider', 'onprem', '--region', 'eu', '--zone', 'eu-1',
      '--label', 'tier=gold', '--taint', 'dedicated=gpu:NoSchedule']), 'member add');
    assert.equal(out, 'cluster.cluster.karmada.io/extra created\n');
    const cluster = JSON.parse(ok(await host(['get', 'clusters.cluster.karmada.io', 'extra', '-o', 'json']), 'get cluster'));
    assert.equal(cluster.spec.apiEndpoint, extra!.kubeconfig.match(/server: (\S+)/)?.[1]);
    assert.equal(cluster.spec.syncMode, 'Push');
    assert.equal(cluster.metadata.labels.tier, 'gold');
    assert.deepEqual(cluster.spec.taints.map((t: { key: string; value?: string; effect: string }) => `${t.key}=${t.value ?? ''}:${t.effect}`).filter((t: string) => t.startsWith('dedicated')), ['dedicated=gpu:NoSchedule']);
    const secret = JSON.parse(ok(await host(['get', 'secret', '-n', 'warren-system', 'cluster-extra', '-o', 'json']), 'get secret'));
    assert.equal(Buffer.from(secret.data.kubeconfig, 'base64').toString('utf8'), extra!.kubeconfig);
    const rows = await eventually(async () => {
      const t = table(ok(await host(['get', 'clusters']), 'kubectl get clusters'));
      return t.find((r) => r[0] === 'extra')?.[3] === 'True' ? t : undefined;
    }, 'extra to be Ready', { timeoutMs: 60_000, intervalMs: 500 });
    assert.deepEqual(rows[0], ['NAME', 'VERSION', 'MODE', 'READY', 'AGE']);
    const again = ok(await member(['add', 'extra', '--cluster-kubeconfig', extra!.kubeconfigPath]), 'member add again');
    assert.equal(again, 'cluster.cluster.karmada.io/extra configured\n');
    const kept = JSON.parse(ok(await host(['get', 'clusters.cluster.karmada.io', 'extra', '-o', 'json']), 'get cluster after re-add'));
    assert.ok(kept.spec.taints.some((t: { key: string }) => t.key === 'dedicated'), 'a re-add without --taint keeps the taints, as it keeps provider, region and zone');
    assert.equal(kept.spec.region, 'eu');
  });

  it('list and get print as kubectl get does: -o wide|name|json|yaml, --no-headers, a missing name fails', async () => {
    const wide = table(ok(await member(['list', '-o', 'wide']), 'member list -o wide'));
    assert.deepEqual(wide[0], ['NAME', 'VERSION', 'MODE', 'READY', 'AGE', 'PROVIDER', 'REGION', 'ZONE', 'TAINTS']);
    const extraRow = wide.find((r) => r[0] === 'extra');
    // The second `member add extra` above named no taint, so extra keeps the first one's.
    assert.deepEqual(extraRow?.slice(5), ['onprem', 'eu', 'eu-1', 'dedicated=gpu:NoSchedule']);
    assert.equal(ok(await member(['get', 'extra', 'member1', '-o', 'name']), 'member get -o name'), 'cluster.cluster.karmada.io/extra\ncluster.cluster.karmada.io/member1\n');
    const one = JSON.parse(ok(await member(['get', 'extra', '-o', 'json']), 'member get -o json'));
    assert.equal(one.kind, 'Cluster');
    assert.equal(one.spec.region, 'eu');
    const list = JSON.parse(ok(await member(['list', '-o', 'json']), 'member list -o json'));
    assert.equal(list.kind, 'List');
    assert.deepEqual(list.items.map((c: { metadata: { name: string } }) => c.metadata.name).sort(), ['extra', 'member1']);
    const bare = table(ok(await member(['list', '--no-headers']), 'member list --no-headers'));
    assert.deepEqual(bare.map((r) => r[0]).sort(), ['extra', 'member1']);
    const missing = await member(['get', 'nosuch']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /member cluster "nosuch" not found/);
    const badOutput = await member(['list', '-o', 'toml']);
    assert.equal(badOutput.code, 1);
    assert.match(badOutput.stderr, /allowed formats are: wide,json,yaml,name/);
    ok(await member(['add', 'extra', '--cluster-kubeconfig', extra!.kubeconfigPath, '--taint=']), 'member add --taint= (clear)');
    const cleared = table(ok(await member(['get', 'extra', '-o', 'wide']), 'member get -o wide after clearing'));
    assert.equal(cleared[1]?.[8], '<none>');
  });

  it('remove deletes both; removing again fails', async () => {
    assert.equal(ok(await member(['remove', 'extra']), 'member remove'), 'cluster.cluster.karmada.io/extra deleted\n');
    const gone = await host(['get', 'clusters.cluster.karmada.io', 'extra']);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /NotFound|not found/);
    const secret = await host(['get', 'secret', '-n', 'warren-system', 'cluster-extra']);
    assert.notEqual(secret.code, 0);
    const twice = await member(['remove', 'extra']);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /member cluster "extra" not found/);
  });

  it('refuses a malformed taint before touching the host', async () => {
    const r = await member(['add', 'bad', '--cluster-kubeconfig', extra!.kubeconfigPath, '--taint', 'oops']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /invalid taint "oops"/);
    assert.notEqual((await host(['get', 'clusters.cluster.karmada.io', 'bad'])).code, 0);
  });
});
