// Karmada's util.ClusterMatches: does a cluster satisfy a ClusterAffinity?
//   exclude wins; then labelSelector (an invalid selector matches nothing), then
//   fieldSelector, then clusterNames (empty = any). Every present part must match.
// fieldSelector keys: provider and region match like node-selector requirements on a
// field set that only holds non-empty fields (In needs the field, NotIn passes without
// it; In/NotIn with no values are invalid and match nothing). zone matches the cluster's
// zones (spec.zones, else spec.zone): no zones never matches; In needs every zone listed,
// NotIn needs none listed.
import { fromLabelSelectorObject, matchesLabels } from '../../selectors/index.ts';
import type { Cluster, ClusterAffinity, FieldSelectorRequirement } from '../karmada-types.ts';

function clusterZones(cluster: Cluster): string[] {
  if (cluster.spec.zones && cluster.spec.zones.length > 0) return cluster.spec.zones;
  return cluster.spec.zone ? [cluster.spec.zone] : [];
}

function matchesZones(req: FieldSelectorRequirement, zones: readonly string[]): boolean {
  if (zones.length === 0) return false;
  const values = req.values ?? [];
  if (req.operator === 'In') return zones.every((z) => values.includes(z));
  if (req.operator === 'NotIn') return zones.every((z) => !values.includes(z));
  return false;
}

function fieldValue(cluster: Cluster, key: string): string | undefined {
  const value = key === 'provider' ? cluster.spec.provider : key === 'region' ? cluster.spec.region : undefined;
  return value ? value : undefined;
}

function matchesField(req: FieldSelectorRequirement, cluster: Cluster): boolean {
  if (req.key === 'zone') return matchesZones(req, clusterZones(cluster));
  const values = req.values ?? [];
  if (values.length === 0) return false;
  const value = fieldValue(cluster, req.key);
  if (req.operator === 'In') return value !== undefined && values.includes(value);
  if (req.operator === 'NotIn') return value === undefined || !values.includes(value);
  return false;
}

function matchesLabelSelector(affinity: ClusterAffinity, cluster: Cluster): boolean {
  if (!affinity.labelSelector) return true;
  try {
    const reqs = fromLabelSelectorObject(affinity.labelSelector);
    return reqs === null || matchesLabels(reqs, cluster.metadata.labels);
  } catch {
    return false;
  }
}

export function matchesClusterAffinity(affinity: ClusterAffinity | undefined, cluster: Cluster): boolean {
  if (!affinity) return true;
  const name = cluster.metadata.name ?? '';
  if ((affinity.exclude ?? []).includes(name)) return false;
  if (!matchesLabelSelector(affinity, cluster)) return false;
  if (!(affinity.fieldSelector?.matchExpressions ?? []).every((req) => matchesField(req, cluster))) return false;
  const names = affinity.clusterNames ?? [];
  return names.length === 0 || names.includes(name);
}
