// Health of a member object (Karmada resourceinterpreter/default/native/healthy.go).
// Kinds Karmada has no rule for are Unknown.
import type { ResourceHealth } from '../karmada-types.ts';
import { int, rec, statusOf } from './status-fields.ts';
import type { Json } from './status-fields.ts';

type Rule = (obj: Json, status: Json, spec: Json) => boolean;

const observed = (obj: Json, s: Json): boolean => int(s.observedGeneration) === int(rec(obj.metadata).generation);
const hasAddress = (s: Json): boolean => {
  const ingress = rec(s.loadBalancer).ingress;
  return Array.isArray(ingress) && ingress.some((i) => Boolean(rec(i).hostname) || Boolean(rec(i).ip));
};

const RULES: Record<string, Rule> = {
  Deployment: (o, s, spec) => observed(o, s)
    && !(typeof spec.replicas === 'number' && int(s.updatedReplicas) < spec.replicas)
    && int(s.availableReplicas) >= int(s.updatedReplicas),
  StatefulSet: (o, s, spec) => observed(o, s)
    && !(typeof spec.replicas === 'number' && int(s.updatedReplicas) < spec.replicas)
    && int(s.availableReplicas) >= int(s.updatedReplicas),
  ReplicaSet: (o, s, spec) => observed(o, s) && !(typeof spec.replicas === 'number' && int(s.availableReplicas) < spec.replicas),
  ReplicationController: (o, s, spec) => observed(o, s) && !(typeof spec.replicas === 'number' && int(s.availableReplicas) < spec.replicas),
  DaemonSet: (o, s) => observed(o, s)
    && int(s.updatedNumberScheduled) >= int(s.desiredNumberScheduled)
    && int(s.numberAvailable) >= int(s.updatedNumberScheduled),
  Service: (_o, s, spec) => spec.type !== 'LoadBalancer' || hasAddress(s),
  Ingress: (_o, s) => hasAddress(s),
  PersistentVolumeClaim: (_o, s) => s.phase === 'Bound',
  Pod: (_o, s) => s.phase === 'Succeeded' || (s.phase === 'Running'
    && (Array.isArray(s.conditions) ? s.conditions : []).some((c) => rec(c).type === 'Ready' && rec(c).status === 'True')),
  PodDisruptionBudget: (_o, s) => int(s.currentHealthy) >= int(s.desiredHealthy),
};

export function interpretHealth(memberObject: unknown): ResourceHealth {
  const obj = rec(memberObject);
  const rule = RULES[String(obj.kind ?? '')];
  if (!rule) return 'Unknown';
  return rule(obj, statusOf(obj) ?? {}, rec(obj.spec)) ? 'Healthy' : 'Unhealthy';
}
