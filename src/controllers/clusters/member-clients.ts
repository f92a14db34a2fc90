// One Upstream per member, built from its Cluster and credential Secret and
// kept while they stay the same (keep-alive sockets survive between probes); a
// new Secret version or endpoint replaces it, a removed Cluster closes it.
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import { memberUpstream } from '../../kube/member-upstream.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { HostClient } from './host-client.ts';

export type MemberClientResult = { upstream: Upstream; fingerprint: string } | { error: string };

export interface MemberClients {
  /** The member's Upstream, or why there is none (missing Secret, no credential in it). */
  clientFor(cluster: Cluster): Promise<MemberClientResult>;
  forget(name: string): void;
  closeAll(): void;
}

export type MemberUpstreamFactory = (cluster: Cluster, secret: { data?: Record<string, string> }) => Upstream;

export function createMemberClients(host: HostClient, options: { timeoutMs: number; factory?: MemberUpstreamFactory }): MemberClients {
  const factory = options.factory ?? ((cluster, secret) => memberUpstream(cluster, secret, { timeoutMs: options.timeoutMs, maxSockets: 4 }));
  const cache = new Map<string, { upstream: Upstream; fingerprint: string }>();
  const forget = (name: string): void => {
    cache.get(name)?.upstream.close();
    cache.delete(name);
  };
  return {
    async clientFor(cluster) {
      const name = cluster.metadata.name ?? '';
      const ref = cluster.spec.secretRef;
      if (!ref) {
        forget(name);
        return { error: 'spec.secretRef is not set' };
      }
      const secret = await host.getSecret(ref.namespace, ref.name);
      if (!secret) {
        forget(name);
        return { error: `secret ${ref.namespace}/${ref.name} not found` };
      }
      const fingerprint = JSON.stringify([secret.metadata.uid, secret.metadata.resourceVersion, cluster.spec.apiEndpoint, cluster.spec.insecureSkipTLSVerification]);
      const cached = cache.get(name);
      if (cached?.fingerprint === fingerprint) return cached;
      forget(name);
      try {
        const entry = { upstream: factory(cluster, secret), fingerprint };
        cache.set(name, entry);
        return entry;
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    },
    forget,
    closeAll() {
      for (const name of [...cache.keys()]) forget(name);
    },
  };
}
