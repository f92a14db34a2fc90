// Pods stamped from a controller's template, and created under a random
// generateName-style suffix (retried on the rare name collision).
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject, OwnerReference } from '../../core/types.ts';
import { randomSuffix } from './kube-hash.ts';
import { DEFS, type SimContext } from './sim-context.ts';
import { pickNode } from './pod-scheduler.ts';

export const CONTROLLER_MANAGER = 'kube-controller-manager';

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  spec?: Record<string, unknown>;
}

export interface PodBuild {
  template: PodTemplate;
  namespace: string;
  name: string;
  generateName?: string;
  owner: OwnerReference;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Fields set over the template's spec (nodeName, hostname, subdomain, affinity...). */
  spec?: Record<string, unknown>;
}

export function buildPod(build: PodBuild): KubeObject {
  const labels = { ...(build.template.metadata?.labels ?? {}), ...(build.labels ?? {}) };
  const annotations = { ...(build.template.metadata?.annotations ?? {}), ...(build.annotations ?? {}) };
  const metadata: KubeObject['metadata'] = { name: build.name, namespace: build.namespace, labels, ownerReferences: [build.owner] };
  if (build.generateName) metadata.generateName = build.generateName;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: { ...(build.template.spec ?? {}), ...(build.spec ?? {}) } };
}

/**
 * Binds at creation: the pod goes straight onto the least-loaded node, as if the
 * scheduler had run (saves a write per pod). Unschedulable pods are created unbound.
 */
export function bindAtCreation(ctx: SimContext, pod: KubeObject): KubeObject {
  const spec = (pod.spec ?? {}) as { nodeName?: string; nodeSelector?: Record<string, string>; schedulerName?: string };
  if (spec.nodeName || (spec.schedulerName && spec.schedulerName !== 'default-scheduler')) return pod;
  const choice = pickNode(ctx.caches.nodes.all(), spec, (n) => ctx.caches.pods.countByIndex('node', n));
  return choice.nodeName ? { ...pod, spec: { ...spec, nodeName: choice.nodeName } } : pod;
}

/** Creates `<prefix><5 random chars>`; a taken name is retried with a fresh suffix. */
export function createPodWithRandomSuffix(ctx: SimContext, prefix: string, build: (name: string) => KubeObject): KubeObject {
  for (let attempt = 0; ; attempt++) {
    try {
      return ctx.writer.create(DEFS.pods, bindAtCreation(ctx, build(`${prefix}${randomSuffix()}`)), CONTROLLER_MANAGER);
    } catch (err) {
      if (attempt < 3 && err instanceof ApiError && err.reason === 'AlreadyExists') continue;
      throw err;
    }
  }
}
