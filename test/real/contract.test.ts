// The contract suite against a real Kubernetes 1.20 control plane (etcd,
// kube-apiserver and its controller-manager, which GC and namespace deletion
// need): every test in test/contract/ runs in a child process pointed at the
// real apiserver's kubeconfig and must pass (or skip what 1.20 does not serve).
// The child runs them all in one process (contract-child.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { realKubeSet, realKubeSkipReason, type RealKube, type RealKubeSet } from '../helpers/real-kube.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';

// The real tier must stay under 10 minutes in CI: the suite is bounded at 7, the control plane's start at ~1.
const SUITE_TIMEOUT_MS = 7 * 60_000;
const skip = realKubeSkipReason();

/** Shards run at once (contract-child.ts): the suite mostly waits for the controller-manager, two overlap that. */
const SHARDS = 2;

/** A child is a test run of its own: without NODE_TEST_CONTEXT, or node --test would skip every file as nested. */
function childEnv(kubeconfigPath: string, shard: number): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
  return { ...env, WARREN_CONTRACT_KUBECONFIG: kubeconfigPath, WARREN_CONTRACT_SHARD: `${shard}/${SHARDS}` };
}

function runShard(kubeconfigPath: string, shard: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', '--test-reporter=spec', join(REPO_ROOT, 'test', 'real', 'contract-child.ts')], {
      cwd: REPO_ROOT,
      env: childEnv(kubeconfigPath, shard),
      timeout: SUITE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 << 20,
    }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: `${stdout}\n${stderr}` }));
    child.on('error', () => undefined);
  });
}

describe('contract suite on a real kube-apiserver 1.20', { skip: skip ?? false, timeout: SUITE_TIMEOUT_MS + 180_000 }, () => {
  let set: RealKubeSet | undefined;
  let kube: RealKube | undefined;
  before(async () => {
    set = realKubeSet();
    kube = await set.start('contract', { controllerManager: true });
  });
  after(async () => {
    try {
      await kube?.stop();
    } finally {
      await set?.stopAll();
    }
  });

  it('every contract test passes or skips', async () => {
    assert.ok(kube, 'control plane started');
    const shards = await Promise.all(Array.from({ length: SHARDS }, (_, i) => runShard(kube?.kubeconfigPath ?? '', i)));
    for (const [i, { code, output }] of shards.entries()) {
      // Each top-level suite's line with its duration, so a slow run says where the time went.
      process.stderr.write(`contract suite on real 1.20, shard ${i + 1}/${SHARDS}, per suite:\n${output.split('\n').filter((l) => /^[✔✖﹣] .*\(\d+(\.\d+)?ms\)$/.test(l)).join('\n')}\n`);
      // The spec reporter's closing "failing tests" section carries each failure's error, which says why.
      const marker = output.indexOf('✖ failing tests:');
      const failing = marker >= 0 ? output.slice(marker, marker + 12_000) : '';
      assert.equal(code, 0, `contract suite on real 1.20, shard ${i + 1}/${SHARDS}, failed (exit ${String(code)}):\n${failing || output.slice(-4000)}`);
      assert.match(output, /ℹ fail 0/, 'the runner reports no failure');
      assert.doesNotMatch(output, /ℹ pass 0\b/, `shard ${i + 1}/${SHARDS}: tests actually ran`);
    }
  });
});
