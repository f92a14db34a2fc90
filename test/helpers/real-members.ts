// Real member clusters for the `real` tier: Kubernetes 1.20 control planes
// (etcd + kube-apiserver, no controller-manager, as Karmada members without
// workloads running), each registered with a credential of its own so a test
// can revoke it (the apiserver's static token file, read at start: the token is
// in it from the first start, and revoking and restoring restart the member's
// apiserver; the admin token that start-kube.sh probes readiness with is never touched).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubeHttp } from './kube-http.ts';
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

/** Starts a member without controller-manager, with a revocable token for Warren on it. */
export async function startRealMember(kubes: RealKubeSet, name: string): Promise<RealMember> {
  const token = randomBytes(16).toString('hex');
  const warrenLine = `${token},${WARREN_USER},${WARREN_USER}-uid,system:masters`;
  const kube = await kubes.start(name, { controllerManager: false, tokens: [warrenLine] });
  const tokens = join(dirname(kube.kubeconfigPath), 'tokens.csv');
  const adminLines = readFileSync(tokens, 'utf8').split('\n').filter((l) => l.trim() && !l.includes(WARREN_USER));
  const write = async (lines: string[]): Promise<void> => {
    writeFileSync(tokens, lines.join('\n') + '\n');
    await kube.restartApiserver();
  };
  return {
    kube,
    warrenKubeconfig: kube.kubeconfig.replace(/token: admintoken/, `token: ${token}`),
    revoke: () => write(adminLines),
    restore: () => write([...adminLines, warrenLine]),
  };
}

/**
 * What a member's deployment controller writes once the copy's replicas run (the members
 * run no controller-manager): a status for the generation the copy has now. Call it in a
 * poll: like that controller, it writes again when the engine has changed the copy since
 * (a status for an older generation reads Unhealthy, and nothing else would renew it; a
 * one-off write raced the engine's last apply under load). True once the status is there.
 */
export async function reportReplicasRunning(member: KubeHttp, path: string, replicas: number): Promise<boolean> {
  const live = await member.get(path);
  if (live.status !== 200) return false;
  const generation = live.body.metadata.generation as number;
  if (live.body.status?.observedGeneration === generation && live.body.status?.readyReplicas === replicas) return true;
  const status = { observedGeneration: generation, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas };
  // A 409 (the copy changed in between) is written again on the next call.
  return (await member.put(`${path}/status`, { ...live.body, status })).status === 200;
}
