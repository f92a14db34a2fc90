// Real kubectl (1.27 and 1.33) through a tenant kubeconfig, against the gateway
// in a child process, compared with what the same commands print directly
// against the upstream, minus the prefix.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { kubectl, type KubectlResult } from '../helpers/kubectl.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';
import { startGatewayProcess, type GatewayUp as Up } from '../helpers/gateway-process.ts';

const FIXTURES = join(REPO_ROOT, 'test/fixtures');


function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}
const table = (out: string): string[][] => out.trimEnd().split('\n').map((l) => l.trim().split(/\s{2,}/));
/** Removes the AGE column's values, which differ between two runs a second apart. */
const ageless = (out: string): string => out.replace(/\s+\d+[smhd](\d+[smh])?(?=\s|$)/g, ' AGE');

for (const version of ['1.27', '1.33']) {
  describe(`kubectl ${version} through the gateway`, { timeout: 150_000 }, () => {
    let child: ChildProcess | undefined;
    let up: Up;
    const as = (who: string) => (args: string[], opts: { timeoutMs?: number } = {}) => kubectl(version, args, { kubeconfigPath: up.kubeconfigs[who]!, ...opts });
    const upstream = (args: string[]) => kubectl(version, args, { kubeconfigPath: up.upstream });
    let a: ReturnType<typeof as>;
    let b: ReturnType<typeof as>;

    before(async () => {
      ({ child, up } = await startGatewayProcess());
      a = as('acme/admin');
      b = as('globex/admin');
    });
    after(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
    });

    it('create namespaces; get ns shows exactly the tenant\'s', async () => {
      assert.equal(ok(await a(['create', 'namespace', 'e2e']), 'create ns'), 'namespace/e2e created\n');
      assert.equal(ok(await b(['create', 'namespace', 'other']), 'create ns b'), 'namespace/other created\n');
      const rows = table(ok(await a(['get', 'ns']), 'get ns'));
      assert.deepEqual(rows.map((r) => r[0]), ['NAME', 'e2e']);
      assert.deepEqual(ok(await a(['get', 'ns', '-o', 'name']), 'get ns -o name'), 'namespace/e2e\n');
    });

    it('apply a Deployment; get pods -A matches the upstream, minus the prefix', async () => {
      assert.equal(ok(await a(['apply', '-n', 'e2e', '-f', join(FIXTURES, 'nginx-deployment.yaml')]), 'apply'), 'deployment.apps/nginx created\n');
      let mine = '';
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        mine = ok(await a(['get', 'pods', '-A']), 'get pods -A');
        if (table(mine).length > 1 && !/Pending|ContainerCreating/.test(mine)) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const rows = table(mine);
      assert.deepEqual(rows[0]!.slice(0, 3), ['NAMESPACE', 'NAME', 'READY']);
      assert.ok(rows.length > 1 && rows.slice(1).every((r) => r[0] === 'e2e'), mine);
      const direct = ok(await upstream(['get', 'pods', '-n', 'acme01-e2e']), 'upstream get pods');
      const mineNoNs = ok(await a(['get', 'pods', '-n', 'e2e']), 'get pods -n');
      assert.equal(ageless(mineNoNs), ageless(direct));
    });

    it('auth can-i as the tenant admin and as a restricted user', async () => {
      assert.equal((await a(['auth', 'can-i', 'create', 'deployments', '-n', 'e2e'])).stdout, 'yes\n');
      assert.equal((await a(['auth', 'can-i', '*', '*'])).stdout, 'yes\n');
      const dev = as('acme/dev');
      const r = await dev(['auth', 'can-i', 'list', 'pods', '-n', 'e2e']);
      assert.equal(r.stdout, 'no\n');
      assert.equal(r.code, 1);
      const list = ok(await dev(['auth', 'can-i', '--list', '-n', 'e2e']), 'can-i --list');
      assert.match(list, /selfsubjectaccessreviews\.authorization\.k8s\.io/);
      assert.doesNotMatch(list, /^pods\s/m);
      assert.doesNotMatch(list, /acme01|globx1/);
    });

    // kubectl wait lists CRDs with fieldSelector metadata.name=<name>, which the gateway does not translate yet.
    it('CRD lifecycle; the other tenant sees nothing of it', async () => {
      ok(await a(['apply', '-f', join(FIXTURES, 'gadget-crd.yaml')]), 'crd');
      ok(await a(['wait', '--for=condition=Established', 'crd/gadgets.e2e.example.com', '--timeout=30s'], { timeoutMs: 40_000 }), 'wait');
      assert.equal(ok(await a(['apply', '-n', 'e2e', '-f', join(FIXTURES, 'gadget.yaml')]), 'cr'), 'gadget.e2e.example.com/g1 created\n');
      assert.deepEqual(table(ok(await a(['get', 'gadgets', '-n', 'e2e']), 'get gadgets')), [['NAME', 'SIZE'], ['g1', '4']]);
      assert.match(ok(await a(['api-resources']), 'api-resources'), /gadgets\s+gdt\s+e2e\.example\.com\/v1/);
      const other = await b(['get', 'gadgets', '-A']);
      assert.notEqual(other.code, 0);
      assert.match(other.stderr, /the server doesn't have a resource type "gadgets"/);
      assert.doesNotMatch(ok(await b(['api-resources']), 'b api-resources'), /gadget|acme01/);
    });

    it('get -w -A ends on --request-timeout and shows only the tenant\'s rows', async () => {
      const r = await a(['get', 'deployments', '-A', '-w', '--request-timeout=3s'], { timeoutMs: 20_000 });
      const rows = table(r.stdout);
      assert.deepEqual(rows[0]!.slice(0, 2), ['NAMESPACE', 'NAME'], r.stderr);
      assert.ok(rows.slice(1).every((row) => row[0] === 'e2e'), r.stdout);
      assert.doesNotMatch(r.stdout + r.stderr, /acme01|globx1/);
    });

    it('logs', async () => {
      const pod = ok(await a(['get', 'pods', '-n', 'e2e', '-o', 'jsonpath={.items[0].metadata.name}']), 'pod name');
      const mine = await a(['logs', '-n', 'e2e', pod]);
      const direct = await upstream(['logs', '-n', 'acme01-e2e', pod]);
      assert.equal(mine.code, direct.code, `${mine.stderr} vs ${direct.stderr}`);
      assert.equal(mine.stdout, direct.stdout);
    });
  });
}
