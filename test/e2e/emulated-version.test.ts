// `--emulated-version 1.20` (ADR 0035), with kubectl 1.27 and 1.33: the
// embedded apiserver shows what kube-apiserver 1.20.2 shows (version, no
// /openapi/v3 so `explain` uses the v2 printer, no fieldValidation so
// `--validate=strict` checks on the client with 1.20's message, CronJob at
// batch/v1beta1), and the default mode keeps 1.33's (v3 served, the server
// validates): the isolation tests that read v3 run in the default mode.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.ts';
import { kubectl, writeTempKubeconfig } from '../helpers/kubectl.ts';

const unknownField = `apiVersion: v1
kind: ConfigMap
metadata: {name: strict}
foo: bar
`;

describe('--emulated-version 1.20: the embedded apiserver as 1.20 shows itself, the default as 1.33', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'warren-e2e-emulated-'));
  let old: RunningApiServer;
  let current: RunningApiServer;
  before(async () => {
    old = await startApiServer({ emulatedVersion: '1.20' });
    current = await startApiServer({});
    writeFileSync(join(dir, 'cm.yaml'), unknownField);
  });
  after(async () => {
    await old?.stop();
    await current?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version}: 1.20's version, no /openapi/v3, explain's v2 text, client-side strict validation, batch/v1beta1 CronJob`, async () => {
      const run = (...args: string[]) => kubectl(version, args, { kubeconfigPath: writeTempKubeconfig(old.kubeconfig) });
      const v = await run('version', '-o', 'json');
      assert.equal((JSON.parse(v.stdout) as { serverVersion: { gitVersion: string; minor: string } }).serverVersion.gitVersion, 'v1.20.2');
      const v3 = await run('get', '--raw', '/openapi/v3');
      assert.notEqual(v3.code, 0, 'no /openapi/v3');
      assert.match(v3.stderr, /NotFound|not found/i);
      const explain = await run('explain', 'deployments.spec.template');
      assert.equal(explain.code, 0, explain.stderr);
      assert.match(explain.stdout, /^RESOURCE:\s+template <Object>/m, 'the v2 printer (a v3 server prints FIELD:)');
      const strict = await run('apply', '--validate=strict', '-f', join(dir, 'cm.yaml'));
      assert.notEqual(strict.code, 0);
      assert.match(strict.stderr, /ValidationError\(ConfigMap\): unknown field "foo"/, 'validated on the client from /openapi/v2, as against 1.20');
      const resources = await run('api-resources', '--api-group=batch', '-o', 'name');
      assert.equal(resources.code, 0, resources.stderr);
      assert.match(resources.stdout, /^cronjobs\.batch$/m);
      const cj = await run('explain', 'cronjobs');
      assert.match(cj.stdout, /VERSION:\s+batch\/v1beta1|GROUP:\s+batch[\s\S]*VERSION:\s+v1beta1/);
      const admission = await run('api-resources', '--api-group=admissionregistration.k8s.io', '-o', 'name');
      assert.doesNotMatch(admission.stdout, /validatingadmissionpolic/);
    });

    it(`kubectl ${version}: the default mode stays 1.33 (v3 served, explain from it, the server validates)`, async () => {
      const run = (...args: string[]) => kubectl(version, args, { kubeconfigPath: writeTempKubeconfig(current.kubeconfig) });
      const v = await run('version', '-o', 'json');
      assert.equal((JSON.parse(v.stdout) as { serverVersion: { gitVersion: string } }).serverVersion.gitVersion, 'v1.33.0');
      const v3 = await run('get', '--raw', '/openapi/v3');
      assert.equal(v3.code, 0, v3.stderr);
      assert.ok((JSON.parse(v3.stdout) as { paths: Record<string, unknown> }).paths['apis/apps/v1'], 'apps/v1 listed');
      const explain = await run('explain', 'deployments.spec.template');
      assert.match(explain.stdout, /^FIELD:\s+template <PodTemplateSpec>/m, 'the v3 printer');
      const strict = await run('apply', '--validate=strict', '-f', join(dir, 'cm.yaml'));
      assert.notEqual(strict.code, 0);
      assert.match(strict.stderr, /strict decoding error: unknown field "foo"/, 'validated on the server');
    });
  }
});
