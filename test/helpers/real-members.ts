// Real member clusters for the `real` tier: Kubernetes 1.20 control planes
// (etcd + kube-apiserver, no controller-manager, as Karmada members without
// workloads running), each registered with a credential of its own so a test
// can revoke it (the apiserver's static token file, read at start, so revoking
// and restoring restart the member's apiserver; the admin token that
// start-kube.sh probes readiness with is never touched).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RealKube, RealKubeSet } from './real-kube.ts';

export interface RealMember {
  kube: RealKube;
  /** The kubeconfig Warren registers: the member's server with Warren's own token. */
  warrenKubeconfig: string;
  /** Removes Warren's token from the member (restarts its apiserver). */
  revoke(): Promise<void>;
  /** Gives the same token back (restarts its apiserver). */
  restore(): Promise<void>;
}

const WARREN_USER = 'warren-member-agent';

/** Starts a member without controller-manager and gives Warren a revocable token on it. */
export async function startRealMember(kubes: RealKubeSet, name: string): Promise<RealMember> {
  const kube = await kubes.start(name, { controllerManager: false });
  const tokens = join(dirname(kube.kubeconfigPath), 'tokens.csv');
  const adminLines = readFileSync(tokens, 'utf8').split('\n').filter((l) => l.trim() && !l.includes(WARREN_USER));
  const token = randomBytes(16).toString('hex');
  const withWarren = [...adminLines, `${token},${WARREN_USER},${WARREN_USER}-uid,system:masters`].join('\n') + '\n';
  const write = async (text: string): Promise<void> => {
    writeFileSync(tokens, text);
    await kube.restartApiserver();
  };
  await write(withWarren);
  return {
    kube,
    warrenKubeconfig: kube.kubeconfig.replace(/token: admintoken/, `token: ${token}`),
    revoke: () => write(adminLines.join('\n') + '\n'),
    restore: () => write(withWarren),
  };
}
