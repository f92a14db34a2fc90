// `kubectl apply -k deploy/ --dry-run=client` as an installer would run it.
// Client dry-run still needs a server (discovery for the REST mapping and
// OpenAPI for validation), so the embedded apiserver answers; then a real
// server-side dry run, which runs the apiserver's validation of every object.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { kubectl, writeTempKubeconfig } from '../../helpers/kubectl.ts';
import { REPO_ROOT } from '../../helpers/warren-process.ts';

const DEPLOY = join(REPO_ROOT, 'deploy');
const EXPECTED = [
  'namespace/warren-system',
  'serviceaccount/warren',
  'clusterrole.rbac.authorization.k8s.io/warren',
  'clusterrole.rbac.authorization.k8s.io/warren:tenant-custom-resources',
  'clusterrolebinding.rbac.authorization.k8s.io/warren',
  'clusterrolebinding.rbac.authorization.k8s.io/warren:tenant-custom-resources',
  'configmap/warren-config',
  'service/warren',
  'deployment.apps/warren',
  'poddisruptionbudget.policy/warren',
  ...readdirSync(join(DEPLOY, 'crds')).map((f) => `customresourcedefinition.apiextensions.k8s.io/${f.replace(/\.yaml$/, '').split('_').reverse().join('.')}`),
];

describe('kubectl apply -k deploy/', { timeout: 60_000 }, () => {
  let api: RunningApiServer;
  let kubeconfigPath = '';
  before(async () => {
    api = await startApiServer({ port: 0 });
    kubeconfigPath = writeTempKubeconfig(api.kubeconfig);
  });
  after(async () => {
    await api.stop();
    rmSync(dirname(kubeconfigPath), { recursive: true, force: true });
  });

  for (const version of ['1.27', '1.33']) {
    it(`--dry-run=client names every object (kubectl ${version})`, async () => {
      const r = await kubectl(version, ['apply', '-k', DEPLOY, '--dry-run=client', '-o', 'name'], { kubeconfigPath });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.trim().split('\n').sort(), [...EXPECTED].sort());
    });
  }

  it('--dry-run=server: the apiserver validates every object (namespace first, as an installer would)', async () => {
    const ns = await kubectl('1.33', ['apply', '-f', join(DEPLOY, 'namespace.yaml')], { kubeconfigPath });
    assert.equal(ns.code, 0, ns.stderr);
    const r = await kubectl('1.33', ['apply', '-k', DEPLOY, '--dry-run=server', '-o', 'name'], { kubeconfigPath });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, EXPECTED.length);
  });
});
