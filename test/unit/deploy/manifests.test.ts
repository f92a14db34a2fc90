// deploy/: every manifest parses and is of a kind we expect; the kustomization
// lists every manifest; the CRD copies equal crds/; the ConfigMap's config
// passes loadConfig; the Deployment has what HA needs; and the ClusterRole
// covers exactly what Warren reaches upstream: the resource-class table's
// tenant resources (read/write), shared ones (read), none of the denied ones,
// and every literal upstream path in src/ outside the embedded apiserver.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';
import { RESOURCE_CLASS_ROWS } from '../../../src/core/tenancy/resource-classes.ts';
import { loadConfig } from '../../../src/config/load-config.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DEPLOY = join(ROOT, 'deploy');
type Obj = Record<string, any>;

const manifestFiles = readdirSync(DEPLOY).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml').sort();
const docs: { file: string; obj: Obj }[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8')).map((d) => ({ file, obj: d.toJS() as Obj })).filter((d) => d.obj));
const crdCopies = readdirSync(join(DEPLOY, 'crds')).sort();
const of = (kind: string, name?: string): Obj[] => docs.map((d) => d.obj).filter((o) => o.kind === kind && (!name || o.metadata?.name === name));

interface Rule { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] }
const role = of('ClusterRole', 'warren')[0] as { rules: Rule[] };

function allows(rules: Rule[], group: string, resource: string, verb: string): boolean {
  return rules.some((r) => (r.apiGroups ?? []).some((g) => g === group || g === '*')
    && (r.resources ?? []).some((x) => x === resource || x === '*' || (x.endsWith('/*') && resource.startsWith(x.slice(0, -1))))
    && r.verbs.some((v) => v === verb || v === '*'));
}

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

describe('deploy/ manifests', () => {
  it('parse, with the expected kinds, each in warren-system when namespaced', () => {
    const kinds = docs.map((d) => d.obj.kind).sort();
    assert.deepEqual([...new Set(kinds)], ['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'Namespace', 'PodDisruptionBudget', 'Service', 'ServiceAccount']);
    for (const { file, obj } of docs) {
      assert.ok(obj.apiVersion && obj.metadata?.name, `${file}: apiVersion and name`);
      if (!['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(obj.kind)) assert.equal(obj.metadata.namespace, 'warren-system', `${file} ${obj.kind}`);
    }
  });

  it('kustomization.yaml lists every manifest and every CRD copy', () => {
    const k = parse(readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    assert.deepEqual([...k.resources].sort(), [...manifestFiles, ...crdCopies.map((f) => `crds/${f}`)].sort());
  });

  it('deploy/crds is an exact copy of crds/', () => {
    const originals = readdirSync(join(ROOT, 'crds')).filter((f) => f.endsWith('.yaml')).sort();
    assert.deepEqual(crdCopies, originals, 'copy deploy/crds from crds/');
    for (const f of originals) assert.equal(readFileSync(join(DEPLOY, 'crds', f), 'utf8'), readFileSync(join(ROOT, 'crds', f), 'utf8'), `deploy/crds/${f} differs from crds/${f}: cp crds/*.yaml deploy/crds/`);
  });

  it('the ConfigMap holds a valid config for in-cluster use', () => {
    const cm = of('ConfigMap', 'warren-config')[0]!;
    const config = loadConfig({ file: 'config.yaml', env: {}, flags: {}, readFile: () => cm.data['config.yaml'] });
    assert.equal(config.upstream.inCluster, true);
    assert.equal(config.leaderElection.enabled, true);
    assert.match(config.listen, /^0\.0\.0\.0:6443$/);
  });

  it('Deployment: 2 replicas, probes, config mount, anti-affinity, non-root, pod name for the Lease', () => {
    const d = of('Deployment', 'warren')[0]!;
    assert.equal(d.spec.replicas, 2);
    const pod = d.spec.template.spec;
    const c = pod.containers[0];
    assert.equal(pod.serviceAccountName, 'warren');
    assert.equal(c.readinessProbe.httpGet.path, '/readyz');
    assert.equal(c.livenessProbe.httpGet.path, '/livez');
    assert.equal(c.readinessProbe.httpGet.scheme, 'HTTPS');
    assert.deepEqual(c.args, ['serve', '--config', '/etc/warren/config.yaml']);
    assert.ok(c.volumeMounts.some((m: Obj) => m.mountPath === '/etc/warren'));
    assert.ok(pod.volumes.some((v: Obj) => v.configMap?.name === 'warren-config'));
    assert.ok(c.env.some((e: Obj) => e.name === 'POD_NAME' && e.valueFrom.fieldRef.fieldPath === 'metadata.name'));
    assert.equal(pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey, 'kubernetes.io/hostname');
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(c.securityContext.allowPrivilegeEscalation, false);
    const labels = d.spec.template.metadata.labels;
    for (const selecting of [of('Service', 'warren')[0]!.spec.selector, of('PodDisruptionBudget', 'warren')[0]!.spec.selector.matchLabels, d.spec.selector.matchLabels]) {
      for (const [k, v] of Object.entries(selecting)) assert.equal(labels[k], v);
    }
  });

  it('Service maps 443 to the container port; the PDB keeps one replica', () => {
    const svc = of('Service', 'warren')[0]!;
    assert.equal(svc.spec.ports[0].port, 443);
    const port = of('Deployment', 'warren')[0]!.spec.template.spec.containers[0].ports.find((p: Obj) => p.name === svc.spec.ports[0].targetPort);
    assert.equal(port?.containerPort, 6443);
    assert.equal(of('PodDisruptionBudget', 'warren')[0]!.spec.minAvailable, 1);
  });

  it('the Dockerfile is node:20-slim, installs without dev dependencies, and runs as non-root', () => {
    const df = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
    assert.match(df, /^FROM node:20-slim/m);
    assert.match(df, /npm ci --omit=dev/);
    assert.match(df, /^USER 10001/m);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.ok(pkg.dependencies.tsx, 'bin/warren needs tsx at runtime: it must stay a dependency for --omit=dev');
  });
});

/** Denied kinds admission reads (pvc-volume-admitter.ts: a claim's volumeName must name a PV whose claimRef is that claim). */
const ADMISSION_READS: ReadonlyMap<string, readonly string[]> = new Map([['persistentvolumes', ['get']]]);

describe('deploy/rbac.yaml: the ClusterRole warren', () => {
  const bindings = of('ClusterRoleBinding');
  it('is bound to the ServiceAccount', () => {
    for (const b of bindings) assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: 'warren', namespace: 'warren-system' }]);
    assert.ok(bindings.some((b) => b.roleRef.name === 'warren'));
  });

  for (const row of RESOURCE_CLASS_ROWS) {
    const key = `${row.resource}${row.group ? `.${row.group}` : ''}`;
    if (row.class === 'tenant-namespaced' || row.class === 'tenant-cluster-scoped') {
      it(`${key} (${row.class}): read and write`, () => {
        for (const verb of [...READ, ...WRITE]) {
          if (verb === 'deletecollection' && row.resource === 'namespaces') continue; // kube has no deletecollection on namespaces
          assert.ok(allows(role.rules, row.group, row.resource, verb), `${verb} ${key}`);
        }
      });
    } else if (row.class === 'shared-read-only') {
      it(`${key} (shared): read`, () => { for (const verb of READ) assert.ok(allows(role.rules, row.group, row.resource, verb), `${verb} ${key}`); });
    } else {
      // Admission reads a few denied kinds to prove a reference is the tenant's own; nothing more.
      const admissionReads = ADMISSION_READS.get(key) ?? [];
      it(`${key} (${row.class}): nothing${admissionReads.length ? ` but admission's ${admissionReads.join(', ')}` : ''}`, () => {
        for (const verb of [...READ, ...WRITE]) {
          const granted = allows(role.rules, row.group, row.resource, verb);
          if (admissionReads.includes(verb)) assert.ok(granted, `${verb} ${key} is needed by admission`);
          else assert.ok(!granted, `${verb} ${key} must not be granted`);
        }
      });
    }
  }

  it('escalate and bind on RBAC objects (tenants write roles with rules Warren need not hold)', () => {
    for (const r of ['roles', 'clusterroles']) for (const v of ['escalate', 'bind']) assert.ok(allows(role.rules, 'rbac.authorization.k8s.io', r, v), `${v} ${r}`);
  });

  it('covers every literal upstream path in src/ (outside the embedded apiserver and member-side code)', () => {
    const consts: Record<string, string> = { RBAC_GROUP: 'rbac.authorization.k8s.io', TENANT_GROUP: 'tenancy.warren.dev', TENANT_VERSION: 'v1alpha1', SYSTEM_NAMESPACE: 'warren-system' };
    // Paths these files use go to member clusters, with the member's own credentials.
    const memberSide = new Set(['src/controllers/clusters/probe-member.ts']);
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
    });
    const files = walk(join(ROOT, 'src')).filter((p) => !/src\/(apiserver|core)\//.test(p) && !memberSide.has(relative(ROOT, p)));
    const found = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\$\{(RBAC_GROUP|TENANT_GROUP|TENANT_VERSION|SYSTEM_NAMESPACE)\}/g, (_, c: string) => consts[c]!);
      for (const m of text.matchAll(/['`]\/api\/v1\/(?:namespaces\/[^/'`]+\/)?([a-z]+)(?:\/[^/'`]+\/([a-z]+))?/g)) {
        if (m[0].includes('${') && /namespaces\/\$\{[^}]*\}$/.test(m[0])) continue;
        found.add(`|${m[1]}${m[2] && m[1] !== 'namespaces' ? `/${m[2]}` : ''}`);
      }
      for (const m of text.matchAll(/['`]\/apis\/([a-z0-9.-]+\.[a-z]+)\/(v[0-9a-z]+)\/(?:namespaces\/[^/'`]+\/)?([a-z]+)/g)) found.add(`${m[1]}|${m[3]}`);
    }
    assert.ok(found.size >= 10, `found only ${[...found].join(', ')}`);
    const missing = [...found].filter((k) => {
      const [group, resource] = k.split('|') as [string, string];
      return !allows(role.rules, group, resource, 'get');
    });
    assert.deepEqual(missing, [], `src/ reaches these upstream resources, deploy/rbac.yaml does not grant them: ${missing.join(', ')}`);
  });
});
