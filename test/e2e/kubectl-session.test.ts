// One scripted kubectl session, run with the oldest and newest kubectl we
// support, against `./bin/warren apiserver` as a child process. Assertions are
// on what kubectl prints against a real kube-apiserver, not only exit codes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, type KubectlResult } from '../helpers/kubectl.ts';
import { startWarrenApiserver, REPO_ROOT, type WarrenProcess } from '../helpers/warren-process.ts';

const FIXTURES = join(REPO_ROOT, 'test/fixtures');
const NS = 'e2e';

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** Splits `kubectl get` output into rows of cells (columns are separated by 2+ spaces or more). */
function table(out: string): string[][] {
  return out.trimEnd().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

for (const version of ['1.27', '1.33']) {
  describe(`kubectl ${version} session`, { timeout: 180_000 }, () => {
    let proc: WarrenProcess | undefined;
    let dataDir = '';
    const k = async (args: string[], options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {}) =>
      await kubectl(version, args, { kubeconfigPath: proc!.kubeconfigPath, ...options });
    const kn = (args: string[], options?: { input?: string; env?: Record<string, string>; timeoutMs?: number }) => k([...args, '-n', NS], options);

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `warren-e2e-${version}-`));
      proc = await startWarrenApiserver(dataDir);
    });
    after(async () => {
      await proc?.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('create namespace', async () => {
      assert.equal(ok(await k(['create', 'namespace', NS]), 'create ns'), `namespace/${NS} created\n`);
    });

    it('apply -f creates, and a changed apply is configured with the last-applied annotation', async () => {
      assert.equal(ok(await kn(['apply', '-f', join(FIXTURES, 'nginx-deployment.yaml')]), 'apply'), 'deployment.apps/nginx created\n');
      assert.equal(ok(await kn(['apply', '-f', join(FIXTURES, 'nginx-deployment-v2.yaml')]), 'apply v2'), 'deployment.apps/nginx configured\n');
      const dep = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json']), 'get json'));
      assert.equal(dep.spec.replicas, 3);
      assert.equal(dep.spec.template.spec.containers[0].image, 'nginx:1.26');
      const last = JSON.parse(dep.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
      assert.equal(last.spec.replicas, 3);
      assert.equal(last.spec.template.spec.containers[0].image, 'nginx:1.26');
      assert.equal(ok(await kn(['apply', '-f', join(FIXTURES, 'nginx-deployment-v2.yaml')]), 'apply again'), 'deployment.apps/nginx unchanged\n');
    });

    it('apply --server-side', async () => {
      const out = ok(await kn(['apply', '--server-side', '-f', join(FIXTURES, 'nginx-deployment-v2.yaml')]), 'ssa');
      assert.equal(out, 'deployment.apps/nginx serverside-applied\n');
      const dep = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json', '--show-managed-fields']), 'get'));
      assert.ok(dep.metadata.managedFields.some((m: any) => m.manager === 'kubectl' && m.operation === 'Apply'), 'kubectl Apply entry');
    });

    it('get, get -o yaml', async () => {
      const rows = table(ok(await kn(['get', 'deployments']), 'get'));
      assert.deepEqual(rows[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      assert.equal(rows.length, 2);
      assert.deepEqual(rows[1]!.slice(0, 4), ['nginx', '0/3', '0', '0']);
      assert.match(rows[1]![4]!, /^\d+s$/);
      const wide = table(ok(await kn(['get', 'deployments', '-o', 'wide']), 'get wide'));
      assert.deepEqual(wide[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(wide[1]!.slice(5), ['nginx', 'nginx:1.26', 'app=nginx']);
      const yaml = ok(await kn(['get', 'deployment', 'nginx', '-o', 'yaml']), 'get yaml');
      assert.match(yaml, /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
      assert.match(yaml, /\n {2}name: nginx\n/);
      assert.match(yaml, /\n {2}namespace: e2e\n/);
    });

    it('get -w ends with --request-timeout and prints the table', async () => {
      const started = Date.now();
      const r = await kn(['get', 'deployments', '-w', '--request-timeout=3s'], { timeoutMs: 20_000 });
      assert.ok(Date.now() - started < 20_000, 'watch ended on its own');
      const rows = table(r.stdout);
      assert.deepEqual(rows[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'], r.stderr);
      assert.equal(rows[1]![0], 'nginx');
    });

    it('label, annotate, scale', async () => {
      assert.equal(ok(await kn(['label', 'deployment', 'nginx', 'tier=web']), 'label'), 'deployment.apps/nginx labeled\n');
      // kubectl 1.27 prints "annotate" (its own typo, fixed in 1.28); the server's answer is the same.
      const annotated = version === '1.27' ? 'deployment.apps/nginx annotate\n' : 'deployment.apps/nginx annotated\n';
      assert.equal(ok(await kn(['annotate', 'deployment', 'nginx', 'note=hello']), 'annotate'), annotated);
      assert.equal(ok(await kn(['scale', 'deployment', 'nginx', '--replicas=4']), 'scale'), 'deployment.apps/nginx scaled\n');
      const dep = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json']), 'get'));
      assert.equal(dep.metadata.labels.tier, 'web');
      assert.equal(dep.metadata.annotations.note, 'hello');
      assert.equal(dep.spec.replicas, 4);
      assert.equal(ok(await kn(['get', 'deployments', '-l', 'tier=web', '-o', 'name']), 'get -l'), 'deployment.apps/nginx\n');
    });

    it('patch --type strategic, merge, json', async () => {
      const strategic = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}';
      assert.equal(ok(await kn(['patch', 'deployment', 'nginx', '--type', 'strategic', '-p', strategic]), 'smp'), 'deployment.apps/nginx patched\n');
      assert.equal(ok(await kn(['patch', 'deployment', 'nginx', '--type', 'merge', '-p', '{"metadata":{"labels":{"merged":"yes"}}}']), 'merge'), 'deployment.apps/nginx patched\n');
      assert.equal(ok(await kn(['patch', 'deployment', 'nginx', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/replicas","value":2}]']), 'json'), 'deployment.apps/nginx patched\n');
      assert.equal(ok(await kn(['patch', 'deployment', 'nginx', '--type', 'merge', '-p', '{"metadata":{"labels":{"merged":"yes"}}}']), 'noop'), 'deployment.apps/nginx patched (no change)\n');
      const dep = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json']), 'get'));
      assert.equal(dep.spec.template.spec.containers.length, 1);
      assert.equal(dep.spec.template.spec.containers[0].image, 'nginx:1.27');
      assert.deepEqual(dep.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
      assert.equal(dep.metadata.labels.merged, 'yes');
      assert.equal(dep.spec.replicas, 2);
    });

    it('edit with a scripted editor', async () => {
      const editor = join(dataDir, 'editor.sh');
      writeFileSync(editor, '#!/bin/sh\nsed -i "s/^  replicas: 2$/  replicas: 5/" "$1"\n');
      chmodSync(editor, 0o755);
      const out = ok(await kn(['edit', 'deployment', 'nginx'], { env: { KUBE_EDITOR: editor } }), 'edit');
      assert.equal(out, 'deployment.apps/nginx edited\n');
      assert.equal(ok(await kn(['get', 'deployment', 'nginx', '-o', 'jsonpath={.spec.replicas}']), 'get'), '5');
    });

    it('explain deployment.spec.replicas', async () => {
      const out = ok(await k(['explain', 'deployment.spec.replicas']), 'explain');
      assert.match(out, /KIND:\s+Deployment/);
      assert.match(out, /FIELD:\s+replicas/);
      assert.match(out, /Number of desired pods/);
    });

    it('api-resources', async () => {
      const rows = table(ok(await k(['api-resources']), 'api-resources'));
      assert.deepEqual(rows[0], ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
      const find = (name: string, apiVersion: string) => rows.find((r) => r[0] === name && r.includes(apiVersion));
      assert.deepEqual(find('deployments', 'apps/v1'), ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
      assert.deepEqual(find('namespaces', 'v1'), ['namespaces', 'ns', 'v1', 'false', 'Namespace']);
      assert.deepEqual(find('configmaps', 'v1'), ['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
      assert.deepEqual(find('customresourcedefinitions', 'apiextensions.k8s.io/v1'), ['customresourcedefinitions', 'crd,crds', 'apiextensions.k8s.io/v1', 'false', 'CustomResourceDefinition']);
      // Rows without short names have an empty cell, which the 2-space split drops.
      assert.deepEqual(find('secrets', 'v1'), ['secrets', 'v1', 'true', 'Secret']);
    });

    it('CRD: create, wait Established, create and get a custom resource', async () => {
      assert.equal(ok(await k(['apply', '-f', join(FIXTURES, 'gadget-crd.yaml')]), 'crd'), 'customresourcedefinition.apiextensions.k8s.io/gadgets.e2e.example.com created\n');
      const waited = ok(await k(['wait', '--for=condition=Established', 'crd/gadgets.e2e.example.com', '--timeout=30s'], { timeoutMs: 40_000 }), 'wait');
      assert.equal(waited, 'customresourcedefinition.apiextensions.k8s.io/gadgets.e2e.example.com condition met\n');
      assert.equal(ok(await kn(['apply', '-f', join(FIXTURES, 'gadget.yaml')]), 'cr'), 'gadget.e2e.example.com/g1 created\n');
      const rows = table(ok(await kn(['get', 'gadgets']), 'get gadgets'));
      assert.deepEqual(rows, [['NAME', 'SIZE'], ['g1', '4']]);
      assert.equal(ok(await kn(['get', 'gdt', '-o', 'name']), 'short name'), 'gadget.e2e.example.com/g1\n');
    });

    it('delete with --cascade=orphan (waits for the orphan finalizer), plain delete', async () => {
      assert.equal(ok(await kn(['delete', 'deployment', 'nginx', '--cascade=orphan']), 'delete orphan'), 'deployment.apps "nginx" deleted\n');
      const gone = await kn(['get', 'deployment', 'nginx']);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /Error from server \(NotFound\): deployments.apps "nginx" not found/);
      assert.equal(ok(await kn(['delete', 'gadget', 'g1']), 'delete cr'), 'gadget.e2e.example.com "g1" deleted\n');
      assert.equal(ok(await kn(['create', 'configmap', 'c1', '--from-literal=a=b']), 'create cm'), 'configmap/c1 created\n');
      assert.equal(ok(await kn(['delete', 'configmap', 'c1']), 'delete cm'), 'configmap "c1" deleted\n');
      assert.equal(ok(await k(['delete', 'namespace', NS, '--wait=false']), 'delete ns'), `namespace "${NS}" deleted\n`);
    });
  });
}
