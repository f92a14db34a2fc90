// Registering member clusters in the host, as `karmadactl join` does in push
// mode: the member's kubeconfig in a Secret (warren-system/cluster-<name>), and
// a cluster.karmada.io Cluster pointing at it. Idempotent, so `warren up` and
// `warren member add` can run again over a registered member: the Secret and
// the platform's fields are replaced, the health taints the cluster controller
// keeps are left to it. Used by `warren up` (its embedded members) and by the CLI.
import { ApiError } from '../core/api-error.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, type Cluster, type Taint } from '../core/propagation/karmada-types.ts';
import type { KubeObject } from '../core/types.ts';
import { currentCluster, parseKubeconfig } from '../kube/kubeconfig-view.ts';
import { MEMBER_SECRET_NAMESPACE, memberSecretName } from '../kube/member-upstream.ts';
import { statusError } from '../kube/status-error.ts';
import type { Upstream } from '../kube/upstream.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';
const SECRETS_PATH = `/api/v1/namespaces/${MEMBER_SECRET_NAMESPACE}/secrets`;

export interface MemberRegistration {
  name: string;
  kubeconfig: string;
  provider?: string | undefined;
  region?: string | undefined;
  zone?: string | undefined;
  labels?: Record<string, string>;
  /** The platform's taints; undefined keeps those the Cluster has (a re-add without --taint changes none). */
  taints?: Taint[] | undefined;
}

/** The server of the kubeconfig's current context: the Cluster's spec.apiEndpoint. */
export function serverOf(kubeconfig: string): string {
  const server = currentCluster(parseKubeconfig(kubeconfig))?.server;
  if (!server) throw new ApiError('Invalid', 'the kubeconfig has no current cluster with a server');
  return server;
}

/** The Cluster object for a registration (taints beyond the controller's are the platform's). */
export function buildMemberCluster(reg: MemberRegistration, kept: Taint[] = []): Cluster {
  const spec: Cluster['spec'] = {
    syncMode: 'Push',
    apiEndpoint: serverOf(reg.kubeconfig),
    secretRef: { namespace: MEMBER_SECRET_NAMESPACE, name: memberSecretName(reg.name) },
  };
  if (reg.provider) spec.provider = reg.provider;
  if (reg.region) spec.region = reg.region;
  if (reg.zone) spec.zone = reg.zone;
  const taints = [...kept, ...(reg.taints ?? [])];
  if (taints.length > 0) spec.taints = taints;
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: reg.name, ...(reg.labels && Object.keys(reg.labels).length > 0 ? { labels: reg.labels } : {}) },
    spec,
  };
}

async function must(upstream: Upstream, method: string, path: string, body: unknown, ok: number[]): Promise<void> {
  const res = await upstream.request(method, path, body);
  if (!ok.includes(res.status)) throw statusError(res.status, res.body);
}

async function ensureSystemNamespace(upstream: Upstream): Promise<void> {
  const res = await upstream.request('GET', `/api/v1/namespaces/${MEMBER_SECRET_NAMESPACE}`);
  if (res.status === 200) return;
  await must(upstream, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: MEMBER_SECRET_NAMESPACE } }, [201, 409]);
}

async function ensureSecret(upstream: Upstream, reg: MemberRegistration): Promise<void> {
  const name = memberSecretName(reg.name);
  const secret = {
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name, namespace: MEMBER_SECRET_NAMESPACE, labels: { 'cluster.karmada.io/name': reg.name } },
    data: { kubeconfig: Buffer.from(reg.kubeconfig).toString('base64') },
  };
  const current = await upstream.request<KubeObject>('GET', `${SECRETS_PATH}/${name}`);
  if (current.status === 404) return must(upstream, 'POST', SECRETS_PATH, secret, [201]);
  if (current.status !== 200) throw statusError(current.status, current.body);
  await must(upstream, 'PUT', `${SECRETS_PATH}/${name}`, { ...secret, metadata: { ...secret.metadata, resourceVersion: current.body.metadata.resourceVersion } }, [200]);
}

export async function ensureMemberCluster(upstream: Upstream, reg: MemberRegistration): Promise<'created' | 'updated'> {
  await ensureSystemNamespace(upstream);
  await ensureSecret(upstream, reg);
  const current = await upstream.request<Cluster>('GET', `${CLUSTERS_PATH}/${reg.name}`);
  if (current.status === 404) {
    await must(upstream, 'POST', CLUSTERS_PATH, buildMemberCluster(reg), [201]);
    return 'created';
  }
  if (current.status !== 200) throw statusError(current.status, current.body);
  const isHealth = (t: Taint): boolean => t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE;
  const health = (current.body.spec.taints ?? []).filter(isHealth);
  const platform = reg.taints ?? (current.body.spec.taints ?? []).filter((t) => !isHealth(t));
  const desired = buildMemberCluster({ ...reg, taints: platform }, health);
  const updated: Cluster = {
    ...current.body,
    metadata: { ...current.body.metadata, labels: { ...current.body.metadata.labels, ...desired.metadata.labels } },
    spec: { ...current.body.spec, ...desired.spec, taints: desired.spec.taints ?? [] },
  };
  await must(upstream, 'PUT', `${CLUSTERS_PATH}/${reg.name}`, updated, [200]);
  return 'updated';
}

/** Deletes the Cluster and its Secret; false when neither existed. */
export async function removeMemberCluster(upstream: Upstream, name: string): Promise<boolean> {
  const cluster = await upstream.request('DELETE', `${CLUSTERS_PATH}/${name}`);
  if (cluster.status !== 404 && cluster.status !== 200 && cluster.status !== 202) throw statusError(cluster.status, cluster.body);
  const secret = await upstream.request('DELETE', `${SECRETS_PATH}/${memberSecretName(name)}`);
  if (secret.status !== 404 && secret.status !== 200 && secret.status !== 202) throw statusError(secret.status, secret.body);
  return cluster.status !== 404 || secret.status !== 404;
}

/** What `warren up` gives its embedded members: provider warren, two regions, a zone each, location labels. */
export function embeddedMemberRegistration(index: number, kubeconfig: string): MemberRegistration {
  const region = index % 2 === 1 ? 'region-a' : 'region-b';
  const zone = `${region}-${String.fromCharCode(97 + Math.floor((index - 1) / 2) % 26)}`;
  return {
    name: `member${index}`,
    kubeconfig,
    provider: 'warren',
    region,
    zone,
    labels: { location: region, 'topology.kubernetes.io/region': region, 'topology.kubernetes.io/zone': zone, provider: 'warren' },
  };
}

export async function registerMembers(upstream: Upstream, members: Array<{ kubeconfig: string }>): Promise<string[]> {
  const names: string[] = [];
  for (const [i, member] of members.entries()) {
    const reg = embeddedMemberRegistration(i + 1, member.kubeconfig);
    await ensureMemberCluster(upstream, reg);
    names.push(reg.name);
  }
  return names;
}
