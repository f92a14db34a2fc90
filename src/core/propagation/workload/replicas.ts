// Replicas of a resource template, and rewriting them per cluster, as Karmada's
// default interpreter does (resourceinterpreter/default/native: replica.go,
// revisereplica.go):
//   Deployment, StatefulSet, ReplicaSet,
//   ReplicationController                spec.replicas (kube defaults it to 1)
//   Job                                  spec.parallelism (default 1), capped by spec.completions
//   Pod                                  always 1
//   anything else                        0: not divided, propagated whole
// ReplicaSet and ReplicationController are Warren's additions (Karmada has no replica interpreter for them).
import type { KubeObject } from '../../types.ts';
import type { ReplicaRequirements } from '../karmada-types.ts';
import { podSpecOf } from './pod-template.ts';
import { podRequests } from './resource-requests.ts';

export interface TemplateReplicas {
  replicas: number;
  replicaRequirements?: ReplicaRequirements;
}

const SPEC_REPLICAS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

function spec(obj: KubeObject): Record<string, unknown> {
  const s = obj.spec;
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? s as Record<string, unknown> : {};
}

function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function replicasOf(template: KubeObject): TemplateReplicas {
  const kind = template.kind ?? '';
  let replicas: number;
  if (SPEC_REPLICAS.has(kind)) {
    replicas = count(spec(template).replicas, 1);
  } else if (kind === 'Job') {
    replicas = count(spec(template).parallelism, 1);
    const completions = count(spec(template).completions, replicas);
    if (replicas > completions) replicas = completions;
  } else if (kind === 'Pod') {
    replicas = 1;
  } else {
    return { replicas: 0 };
  }
  const pod = podSpecOf(template);
  const requests = pod ? podRequests(pod) : undefined;
  return requests ? { replicas, replicaRequirements: { resourceRequest: requests } } : { replicas };
}

/**
 * The manifest with this cluster's share of replicas (Karmada's ReviseReplica): spec.replicas for
 * Deployment/StatefulSet/ReplicaSet, spec.parallelism for Job; other kinds are returned unchanged.
 * Karmada's ApplyReplica only rewrites a field the template has; templates read back from an
 * apiserver always have it (defaulted), and setting it regardless keeps a hand-built template from
 * landing with the default 1 on every member. Never mutates.
 */
export function reviseReplicas(manifest: KubeObject, replicas: number): KubeObject {
  const kind = manifest.kind ?? '';
  const field = SPEC_REPLICAS.has(kind) ? 'replicas' : kind === 'Job' ? 'parallelism' : undefined;
  if (!field) return manifest;
  const s = spec(manifest);
  return { ...manifest, spec: { ...s, [field]: replicas } };
}
