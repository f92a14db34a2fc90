// Connections to the member clusters and what the engine sees on them. A
// member's client is built from its Cluster and credentials Secret and rebuilt
// when either changes. Objects the engine applied are watched per (member,
// kind), started on first use, so their status flows back into bindings
// without polling; an event names its binding by the permanent-id label.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import { startInformer, type Informer, type InformerEventType } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { allNamespacesPath, type TemplateResource } from './template-resources.ts';
import { MANAGED_LABEL, PERMANENT_ID_LABEL } from './member-labels.ts';
import { memberView } from './member-view.ts';
import { memberRowOf } from './member-version.ts';
import { levelled } from '../../observability/log-line.ts';

export type ConnectMember = (cluster: Cluster, secret: { data?: Record<string, string> } | undefined) => Upstream;

interface Member {
  /** cluster resourceVersion + secret resourceVersion the client was built from */
  version: string;
  client: Upstream;
  informers: Map<TemplateResource, Informer<KubeObject>>;
}

export interface MemberPool {
  /** The member's client, or undefined when its credentials cannot be read. */
  client(cluster: Cluster): Promise<Upstream | undefined>;
  /** The engine's object on the member as last seen (its view: member-view.ts), and whether that view is complete. */
  observed(clusterName: string, resource: TemplateResource, namespace: string, name: string): { synced: boolean; obj: KubeObject | undefined };
  /** Starts watching a kind on a member (idempotent). */
  watch(cluster: Cluster, resource: TemplateResource): Promise<void>;
  forget(clusterName: string): void;
  stop(): void;
}

export function createMemberPool(options: {
  upstream: Upstream;
  connect: ConnectMember;
  /** A member object changed: the uid of the binding it belongs to, and where and what it is. */
  onMemberChange: (bindingUid: string, change: { cluster: string; resource: TemplateResource; type: InformerEventType; obj: KubeObject }) => void;
  log: (line: string) => void;
}): MemberPool {
  const members = new Map<string, Member>();
  const synced = new Set<Informer<KubeObject>>();
  // A pass in flight at stop() resumes after it: what it would build then is stopped by no one (a watch
  // retrying the closed member for ever kept the process alive), so nothing is built once stopped.
  let stopped = false;

  async function readSecret(cluster: Cluster): Promise<{ data?: Record<string, string>; metadata?: { resourceVersion?: string } } | undefined> {
    const ref = cluster.spec.secretRef;
    if (!ref) return undefined;
    const res = await options.upstream.request<{ data?: Record<string, string>; metadata?: { resourceVersion?: string } }>(
      'GET', `/api/v1/namespaces/${encodeURIComponent(ref.namespace)}/secrets/${encodeURIComponent(ref.name)}`);
    return res.status === 200 ? res.body : undefined;
  }

  function drop(name: string): void {
    const member = members.get(name);
    if (!member) return;
    for (const informer of member.informers.values()) {
      informer.stop();
      synced.delete(informer);
    }
    member.client.close();
    members.delete(name);
  }

  async function memberOf(cluster: Cluster): Promise<Member | undefined> {
    const name = cluster.metadata.name ?? '';
    const existing = members.get(name);
    // A client is rebuilt only when the endpoint or the credentials change, not on every status write.
    const specVersion = JSON.stringify(cluster.spec.apiEndpoint) + JSON.stringify(cluster.spec.secretRef);
    if (existing && existing.version.startsWith(specVersion)) return existing;
    const secret = await readSecret(cluster);
    if (stopped) return undefined;
    const version = `${specVersion}#${secret?.metadata?.resourceVersion ?? ''}`;
    if (existing && existing.version === version) return existing;
    drop(name);
    let client: Upstream;
    try {
      client = options.connect(cluster, secret);
    } catch (err) {
      options.log(levelled('warn', `propagation: cannot connect to member ${name}: ${String(err)}`));
      return undefined;
    }
    const member: Member = { version, client, informers: new Map() };
    members.set(name, member);
    return member;
  }

  return {
    async client(cluster) {
      return stopped ? undefined : (await memberOf(cluster))?.client;
    },
    observed(clusterName, resource, namespace, name) {
      const informer = members.get(clusterName)?.informers.get(resource);
      if (!informer) return { synced: false, obj: undefined };
      return { synced: synced.has(informer), obj: informer.store.get(namespace ? `${namespace}/${name}` : name) }; // cluster-scoped: by name
    },
    async watch(cluster, resource) {
      const member = await memberOf(cluster);
      if (!member || member.informers.has(resource)) return;
      // Kept under the template's row; listed in the version the member serves (member-version.ts).
      const row = await memberRowOf(member.client, resource);
      if (stopped || member.informers.has(resource) || members.get(cluster.metadata.name ?? '') !== member) return;
      const informer = startInformer<KubeObject>({
        upstream: member.client,
        listPath: allNamespacesPath(row),
        labelSelector: `${MANAGED_LABEL}=true`,
        // Slim copies (member-view.ts): what the engine reads of a copy, not the whole object.
        transform: memberView,
        log: options.log,
        onEvent: (type, obj) => {
          const uid = obj.metadata.labels?.[PERMANENT_ID_LABEL];
          if (uid) options.onMemberChange(uid, { cluster: cluster.metadata.name ?? '', resource, type, obj });
        },
      });
      member.informers.set(resource, informer);
      informer.synced().then(() => synced.add(informer), () => undefined);
    },
    forget: drop,
    stop() {
      stopped = true;
      for (const name of [...members.keys()]) drop(name);
    },
  };
}
