// The tenant kubectl session of the embedded e2e matrix
// (test/helpers/gateway-kubectl-session.ts), with kubectl 1.27 and 1.33,
// through `warren serve` on a real Kubernetes 1.20 control plane with its
// controller-manager (pods stay Pending: no kubelet).
import { after, before, describe } from 'node:test';
import { readFileSync } from 'node:fs';
import { describeKubectlSession } from '../helpers/gateway-kubectl-session.ts';
import { realKubeSkipReason, startRealWarren, warmTenantOpenApi, type RealWarren } from '../helpers/real-warren.ts';

const skip = realKubeSkipReason();
const timings: string[] = [];

describe('kubectl sessions through warren serve on a real kube-apiserver 1.20', { timeout: 900_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren | undefined;
  let kubeconfigPath = '';
  let prefixes = /^$/;
  before(async () => {
    w = await startRealWarren();
    kubeconfigPath = await w.kubeconfigOf('acme');
    await warmTenantOpenApi(readFileSync(kubeconfigPath, 'utf8'));
    prefixes = new RegExp(`${await w.tenantId('acme')}-|${await w.tenantId('globex')}-`);
  });
  after(async () => {
    process.stderr.write(`real kubectl sessions: ${timings.join(', ')}\n`);
    await w?.stop();
  });
  for (const version of ['1.27', '1.33']) {
    describeKubectlSession(version, { kubeconfigPath: () => kubeconfigPath, prefixes: () => prefixes, workloadsReady: false, timing: (line) => timings.push(line) });
  }
});
