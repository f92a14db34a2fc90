// Issue 19: the Helm chart (default values, rendered by test/helpers/helm-template.ts)
// and `kubectl apply -k deploy/` both go through a real kube-apiserver's server-side
// dry run (its admission and validation of every object), namespace first, as an
// installer would; both must get the same verdict object by object.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { renderChart } from '../helpers/helm-template.ts';
import { kubectl } from '../helpers/kubectl.ts';
import { realKubeSet, realKubeSkipReason, type RealKube } from '../helpers/real-kube.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';

const DEPLOY = join(REPO_ROOT, 'deploy');
const KUBECTL = '1.33';

/** kubectl's `-o name` lines and its error lines (less where the objects came from), sorted: the verdict per object. */
function verdicts(r: { stdout: string; stderr: string }): string[] {
  return [...r.stdout.split('\n'), ...r.stderr.split('\n')].map((l) => l.trim().replace(/ from "[^"]*":/, ':')).filter((l) => l !== '').sort();
}

describe('deploy/ and the Helm chart on a real kube-apiserver (--dry-run=server)', { skip: realKubeSkipReason(), timeout: 600_000 }, () => {
  const set = realKubeSet();
  let kube: RealKube;
  before(async () => {
    kube = await set.start('helm', { controllerManager: false });
    const ns = await kubectl(KUBECTL, ['apply', '-f', join(DEPLOY, 'namespace.yaml')], { kubeconfigPath: kube.kubeconfigPath });
    assert.equal(ns.code, 0, ns.stderr);
  });
  after(async () => { await set.stopAll(); });

  it('the chart with default values gets the verdicts kustomize gets, object by object', async () => {
    const kustomize = await kubectl(KUBECTL, ['apply', '-k', DEPLOY, '--dry-run=server', '-o', 'name'], { kubeconfigPath: kube.kubeconfigPath, timeoutMs: 180_000 });
    const chart = renderChart(join(DEPLOY, 'helm/warren')).map((f) => f.text).join('\n---\n');
    const helm = await kubectl(KUBECTL, ['apply', '-f', '-', '--dry-run=server', '-o', 'name'], { kubeconfigPath: kube.kubeconfigPath, input: chart, timeoutMs: 180_000 });
    const names = verdicts(kustomize).filter((l) => !l.startsWith('error'));
    // Every object of the install is in the answer: the CRDs, RBAC, ConfigMap, Deployment, Service.
    for (const expected of ['deployment.apps/warren', 'configmap/warren-config', 'service/warren', 'clusterrole.rbac.authorization.k8s.io/warren',
      'customresourcedefinition.apiextensions.k8s.io/tenants.tenancy.warren.dev']) assert.ok(names.includes(expected), `${expected} in\n${kustomize.stdout}\n${kustomize.stderr}`);
    // Kubernetes 1.20 serves PodDisruptionBudget as policy/v1beta1 only (policy/v1 is 1.21+; the
    // install guide asks for 1.27): that object, and only it, is refused, by both.
    const errors = verdicts(kustomize).filter((l) => l.startsWith('error'));
    assert.deepEqual(errors, ['error: resource mapping not found for name: "warren" namespace: "warren-system": no matches for kind "PodDisruptionBudget" in version "policy/v1"']);
    assert.deepEqual(verdicts(helm), verdicts(kustomize));
    assert.equal(helm.code, kustomize.code);
  });
});
