// The tenant kubectl session, one kubectl version per call: the steps and
// output assertions of kubectl-session.test.ts, through the gateway with a
// tenant admin kubeconfig. Used by the embedded e2e matrix
// (test/e2e/gateway-kubectl-session.test.ts, every kubectl 1.27-1.33) and the
// real tier (test/real/serve-kubectl.test.ts, warren serve on Kubernetes 1.20).
// Each version works in its own namespace, CRD group and short name, with its
// own HOME (discovery cache); no output may show a tenant prefix.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kubectl, kubectlPath, type KubectlResult } from './kubectl.ts';
import { eventually } from './poll.ts';
import { REPO_ROOT } from './warren-process.ts';

const FIXTURES = join(REPO_ROOT, 'test/fixtures');

export interface KubectlSessionEnv {
  /** The tenant admin's kubeconfig (copied per version); read in `before`, once the gateway is up. */
  kubeconfigPath(): string;
  /** Upstream prefixes that must never show in any output. */
  prefixes(): RegExp;
  /** Do Deployments become ready (workload simulator), or stay at 0 ready (a real control plane without kubelet)? */
  workloadsReady: boolean;
  /** Each version's duration, for the caller's summary line. */
  timing?(line: string): void;
}

interface KOptions { input?: string; env?: Record<string, string>; timeoutMs?: number }

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** Splits `kubectl get` output into rows of cells (columns are separated by 2+ spaces). */
function table(out: string): string[][] {
  return out.trimEnd().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

/** Every kubectl.1.XX beside the real kubectl, in version order. */
export function kubectlVersions(): string[] {
  const dir = dirname(kubectlPath('1.33'));
  return readdirSync(dir).map((f) => /^kubectl\.(1\.\d+)$/.exec(f)?.[1]).filter((v): v is string => v !== undefined)
    .sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
}

export function describeKubectlSession(version: string, env: KubectlSessionEnv): void {
  // concurrency 1: the steps build on each other, in order, also when the caller runs
  // several versions' sessions side by side (a suite's subtests inherit its concurrency).
  describe(`kubectl ${version} session through the gateway`, { timeout: 180_000, concurrency: 1 }, () => {
    // Versions share the gateway and tenant: each works in its own namespace and
    // CRD group (short names must differ too, or kubectl would find two gdt's).
    const tag = version.replace('.', '');
    const NS = `e2e-${tag}`;
    const GROUP = `e2e${tag}.example.com`;
    const SHORT = `gdt${tag}`;
    let scratch = '';
    let kubeconfigPath = '';
    let began = 0;
    /** Every command runs as acme's admin, and nothing it prints may carry a prefix. */
    const k = async (args: string[], options: KOptions = {}): Promise<KubectlResult> => {
      const r = await kubectl(version, args, { kubeconfigPath, ...options });
      assert.doesNotMatch(r.stdout + r.stderr, env.prefixes(), `kubectl ${args.join(' ')} shows a tenant prefix`);
      return r;
    };
    const kn = (args: string[], options?: KOptions) => k([...args, '-n', NS], options);
    /** The gadget fixtures, moved to this version's group and short name. */
    const fixture = (name: string): string => {
      const path = join(scratch, name);
      writeFileSync(path, readFileSync(join(FIXTURES, name), 'utf8').replaceAll('e2e.example.com', GROUP).replace('[gdt]', `[${SHORT}]`));
      return path;
    };

    before(() => {
      began = Date.now();
      scratch = mkdtempSync(join(tmpdir(), `warren-gw-e2e-${version}-`));
      // A private copy: kubectl's HOME (and discovery cache) is the kubeconfig's folder.
      kubeconfigPath = join(scratch, 'kubeconfig');
      copyFileSync(env.kubeconfigPath(), kubeconfigPath);
    });
    after(() => {
      env.timing?.(`${version} ${Date.now() - began} ms`);
      rmSync(scratch, { recursive: true, force: true });
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
      assert.equal(dep.metadata.namespace, NS);
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
      // With the workload simulator (gateway-up.ts) all 3 replicas become ready and the rollout
      // to v2 completes (3 up to date). On a real control plane without a kubelet the pods stay
      // Pending, so the rollout stops after its first surge pod: 25% of 3 gives maxSurge 1 and
      // maxUnavailable 0, and no old pod is ever available to remove (0/3, 1 up to date; the
      // real kube-apiserver 1.20's controller-manager shows exactly that). Wait until the row is
      // what it settles at, so it is exact.
      const want = env.workloadsReady ? ['nginx', '3/3', '3', '3'] : ['nginx', '0/3', '1', '0'];
      let out = '';
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        out = ok(await kn(['get', 'deployments']), 'get');
        if (JSON.stringify(table(out)[1]?.slice(0, 4)) === JSON.stringify(want)) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const rows = table(out);
      assert.deepEqual(rows[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      assert.equal(rows.length, 2);
      assert.deepEqual(rows[1]!.slice(0, 4), want, out);
      assert.match(rows[1]![4]!, /^\d+s$/);
      const wide = table(ok(await kn(['get', 'deployments', '-o', 'wide']), 'get wide'));
      assert.deepEqual(wide[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(wide[1]!.slice(5), ['nginx', 'nginx:1.26', 'app=nginx']);
      const yaml = ok(await kn(['get', 'deployment', 'nginx', '-o', 'yaml']), 'get yaml');
      assert.match(yaml, /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
      assert.match(yaml, /\n {2}name: nginx\n/);
      assert.match(yaml, new RegExp(`\\n {2}namespace: ${NS}\\n`));
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
      // kubectl says "(no change)" when the object it read before patching equals the answer. The
      // workload simulator writes the Deployment's status after the scale above: let it settle first,
      // and read again if a status write still fell between kubectl's GET and its PATCH. On a real
      // control plane without a kubelet the rollouts never complete, so the old ReplicaSets keep
      // their Pending pods (status.replicas stays above 2): there, settled means the controller has
      // observed the last change.
      await eventually(async () => {
        const d = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json']), 'settle'));
        const observed = d.status?.observedGeneration === d.metadata.generation;
        return env.workloadsReady ? observed && d.status?.replicas === 2 && d.status?.readyReplicas === 2 : observed;
      }, 'the Deployment to settle at 2 replicas', { timeoutMs: 30_000, intervalMs: 250 });
      let noop = '';
      for (let attempt = 0; attempt < 3 && noop !== 'deployment.apps/nginx patched (no change)\n'; attempt++) {
        noop = ok(await kn(['patch', 'deployment', 'nginx', '--type', 'merge', '-p', '{"metadata":{"labels":{"merged":"yes"}}}']), 'noop');
      }
      assert.equal(noop, 'deployment.apps/nginx patched (no change)\n');
      const dep = JSON.parse(ok(await kn(['get', 'deployment', 'nginx', '-o', 'json']), 'get'));
      assert.equal(dep.spec.template.spec.containers.length, 1);
      assert.equal(dep.spec.template.spec.containers[0].image, 'nginx:1.27');
      assert.deepEqual(dep.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
      assert.equal(dep.metadata.labels.merged, 'yes');
      assert.equal(dep.spec.replicas, 2);
    });

    it('edit with a scripted editor', async () => {
      const editor = join(scratch, 'editor.sh');
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

    // The gateway serves discovery from a 2 s TTL cache of the upstream's documents
    // (src/gateway/answered/discovery.ts), and `api-resources` just filled it; so
    // right after `wait --for=condition=Established`, kubectl's refetch of /apis
    // still gets the document without the new group.
    it('CRD: create, wait Established, create and get a custom resource', async () => {
      assert.equal(ok(await k(['apply', '-f', fixture('gadget-crd.yaml')]), 'crd'), `customresourcedefinition.apiextensions.k8s.io/gadgets.${GROUP} created\n`);
      const waited = ok(await k(['wait', '--for=condition=Established', `crd/gadgets.${GROUP}`, '--timeout=30s'], { timeoutMs: 40_000 }), 'wait');
      assert.equal(waited, `customresourcedefinition.apiextensions.k8s.io/gadgets.${GROUP} condition met\n`);
      assert.equal(ok(await kn(['apply', '-f', fixture('gadget.yaml')]), 'cr'), `gadget.${GROUP}/g1 created\n`);
      const rows = table(ok(await kn(['get', `gadgets.${GROUP}`]), 'get gadgets'));
      assert.deepEqual(rows, [['NAME', 'SIZE'], ['g1', '4']]);
      assert.equal(ok(await kn(['get', SHORT, '-o', 'name']), 'short name'), `gadget.${GROUP}/g1\n`);
    });

    it('delete with --cascade=orphan (waits for the orphan finalizer)', async () => {
      assert.equal(ok(await kn(['delete', 'deployment', 'nginx', '--cascade=orphan']), 'delete orphan'), 'deployment.apps "nginx" deleted\n');
      const gone = await kn(['get', 'deployment', 'nginx']);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /Error from server \(NotFound\): deployments.apps "nginx" not found/);
    });

    // Needs g1, which the CRD step could not create (see DISCOVERY_LAG).
    it('delete the custom resource', async () => {
      assert.equal(ok(await kn(['delete', `gadget.${GROUP}`, 'g1']), 'delete cr'), `gadget.${GROUP} "g1" deleted\n`);
    });

    it('plain delete: a configmap, then the namespace', async () => {
      assert.equal(ok(await kn(['create', 'configmap', 'c1', '--from-literal=a=b']), 'create cm'), 'configmap/c1 created\n');
      assert.equal(ok(await kn(['delete', 'configmap', 'c1']), 'delete cm'), 'configmap "c1" deleted\n');
      assert.equal(ok(await k(['delete', 'namespace', NS, '--wait=false']), 'delete ns'), `namespace "${NS}" deleted\n`);
    });
  });
}
