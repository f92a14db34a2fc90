// The platform-admin CLI against a host apiserver with Warren's CRDs (no
// controllers: these are the CLI's own answers), run in-process through main()
// as a user types it: $KUBECONFIG and --context, tenant create/list/get/
// kubeconfig, member add/list with karmadactl's flag names.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.ts';
import { ensureCrds, readCrdFiles } from '../../src/kube/ensure-crds.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Tenant } from '../../src/tenants/tenant-crd.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';
import { runCli, type CliResult } from '../unit/cli/run-cli.ts';

function ok(r: CliResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

describe('warren CLI against a host', { timeout: 120_000 }, () => {
  let api: RunningApiServer;
  let dir: string;
  let kc: string;
  let env: Record<string, string>;
  const cli = (...argv: string[]): Promise<CliResult> => runCli(argv, env);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warren-cli-host-'));
    api = await startApiServer({ port: 0 });
    const upstream = createUpstream({ yaml: api.kubeconfig });
    try {
      await ensureCrds(upstream, readCrdFiles(join(REPO_ROOT, 'crds')));
    } finally {
      upstream.close();
    }
    // Two contexts: "elsewhere" (current) points at nothing, "host" at the apiserver.
    const host = parse(api.kubeconfig) as { clusters: Array<{ name: string; cluster: Record<string, unknown> }>; users: Array<{ name: string }>; contexts: Array<{ name: string; context: Record<string, string> }> };
    const cluster = host.clusters[0]!;
    const user = host.users[0]!;
    kc = join(dir, 'config');
    writeFileSync(kc, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'elsewhere',
      clusters: [cluster, { name: 'nowhere', cluster: { ...cluster.cluster, server: 'https://127.0.0.1:1' } }],
      users: [user],
      contexts: [{ name: 'host', context: { cluster: cluster.name, user: user.name } }, { name: 'elsewhere', context: { cluster: 'nowhere', user: user.name } }],
    }));
    env = { KUBECONFIG: kc };
  });

  after(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('$KUBECONFIG is read and its current context used: unreachable, and the error names the address', async () => {
    const r = await cli('tenant', 'list');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: the upstream apiserver is unavailable: tried https:\/\/127\.0\.0\.1:1 \(kubeconfig .*config from \$KUBECONFIG=/);
  });

  it('--context picks the host; no tenants yet says so on stderr', async () => {
    const r = await cli('tenant', 'list', '--context', 'host');
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', 'No tenants found.\n']);
  });

  it('tenant create maps every flag into the spec', async () => {
    assert.equal(ok(await cli('tenant', 'create', 'acme', '--context', 'host', '--admin', 'alice', '--user', 'bob', '--pod-security', 'restricted',
      '--cluster', 'member1', '--cluster-selector', 'region=eu', '--quota', 'namespaces=6,cpu=4'), 'create'), 'tenant/acme created\n');
    const got = JSON.parse(ok(await cli('tenant', 'get', 'acme', '--context', 'host', '-o', 'json'), 'get -o json')) as Tenant;
    assert.deepEqual(got.spec?.users, [{ name: 'alice', admin: true }, { name: 'bob' }]);
    assert.equal(got.spec?.podSecurity, 'restricted');
    assert.deepEqual(got.spec?.clusters, { names: ['member1'], labelSelector: { matchLabels: { region: 'eu' } } });
    assert.deepEqual(got.spec?.quota, { namespaces: 6, cpu: '4' });
  });

  it('tenant create on an existing tenant: AlreadyExists, exit 1, nothing changed', async () => {
    const r = await cli('tenant', 'create', 'acme', '--context', 'host', '--admin', 'mallory');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: .*"acme" already exists \(use `warren apply` or `kubectl edit` to change it\)\n$/);
    const got = JSON.parse(ok(await cli('tenant', 'get', 'acme', '--context', 'host', '-o', 'json'), 'get')) as Tenant;
    assert.deepEqual(got.spec?.users?.map((u) => u.name), ['alice', 'bob']);
  });

  it('tenant create: a bad id is the server\'s Invalid, exit 1', async () => {
    const r = await cli('tenant', 'create', 'badid', '--context', 'host', '--admin', 'a', '--id', 'NOPE');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: cannot create tenant "badid": .*spec\.id/);
  });

  it('tenant list: aligned columns, -o name, --no-headers, -o yaml', async () => {
    ok(await cli('tenant', 'create', 'globex', '--context', 'host', '--admin', 'gina'), 'create globex');
    const lines = ok(await cli('tenant', 'list', '--context', 'host'), 'list').trimEnd().split('\n');
    assert.match(lines[0]!, /^NAME {5}ID {7}PHASE {5}AGE$/);
    assert.match(lines[1]!, /^acme {5}<none> {3}Pending {3}\d+s$/);
    assert.equal(lines.length, 3);
    assert.equal(ok(await cli('tenant', 'list', '--context', 'host', '-o', 'name'), 'name'), 'tenant.tenancy.warren.dev/acme\ntenant.tenancy.warren.dev/globex\n');
    assert.doesNotMatch(ok(await cli('tenant', 'list', '--context', 'host', '--no-headers'), 'no headers'), /NAME/);
    const list = parse(ok(await cli('tenant', 'get', '--context', 'host', '-oyaml'), 'yaml')) as { kind: string; items: Tenant[] };
    assert.deepEqual([list.kind, list.items.map((t) => t.metadata.name)], ['List', ['acme', 'globex']]);
  });

  it('tenant get of a missing tenant and kubeconfig of a missing user say so', async () => {
    const missing = await cli('tenant', 'get', 'nope', '--context', 'host');
    assert.deepEqual([missing.code, missing.stderr], [1, 'error: tenant "nope" not found\n']);
    const nobody = await cli('tenant', 'kubeconfig', 'acme', '--user', 'nobody', '--context', 'host');
    assert.deepEqual([nobody.code, nobody.stderr], [1, 'error: user "nobody" does not exist in tenant "acme" (its users: alice, bob)\n']);
    const pending = await cli('tenant', 'kubeconfig', 'acme', '--user', 'bob', '--context', 'host');
    assert.deepEqual([pending.code, pending.stderr], [1, 'error: no kubeconfig for user "bob" of tenant "acme": it is Pending, not Ready\n']);
  });

  it('member add: --kubeconfig is the host, --cluster-kubeconfig the member (karmadactl join); list shows it', async () => {
    const memberKc = join(dir, 'member.kubeconfig');
    writeFileSync(memberKc, api.kubeconfig);
    const hostKc = join(dir, 'host.kubeconfig');
    writeFileSync(hostKc, api.kubeconfig);
    assert.equal(ok(await runCli(['member', 'add', 'm1', '--kubeconfig', hostKc, '--cluster-kubeconfig', memberKc, '--region', 'eu'], {}), 'add'), 'cluster.cluster.karmada.io/m1 created\n');
    // The old spelling still works, with a deprecation warning.
    const old = await runCli(['member', 'add', 'm1', '--upstream-kubeconfig', hostKc, '--kubeconfig', memberKc], {});
    assert.equal(ok(old, 'add, old flags'), 'cluster.cluster.karmada.io/m1 configured\n');
    assert.match(old.stderr, /--upstream-kubeconfig has been deprecated/);
    assert.match(ok(await cli('member', 'list', '--context', 'host'), 'list'), /^NAME {3}VERSION/);
    const noMember = await runCli(['member', 'add', 'm2', '--kubeconfig', hostKc], {});
    assert.deepEqual([noMember.code, noMember.stderr], [1, "error: member add needs --cluster-kubeconfig FILE (the member cluster's kubeconfig; --kubeconfig is the host's, as in karmadactl join)\n"]);
  });
});
