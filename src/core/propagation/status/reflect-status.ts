// Which part of a member object's status travels back into the binding's
// aggregatedStatus (Karmada resourceinterpreter/default/native/reflectstatus.go).
// Replica workloads also carry `generation` (the member object's) and
// `resourceTemplateGeneration` (from the annotation the binding controller
// stamps on every manifest), so aggregation can tell when every member has
// observed the current template. Kinds with no rule reflect their whole status.
// Warren differs in three places: StatefulSet also keeps observedGeneration
// (Karmada drops it, so its federated observedGeneration never advances),
// ReplicaSet has a rule of its own, and a Deployment's Available and
// Progressing conditions travel too (see deployment-conditions.ts).
import { int, pick, pickInts, rec, statusOf } from './status-fields.ts';
import type { Json } from './status-fields.ts';
import { DEPLOYMENT_CONDITION_TYPES } from './deployment-conditions.ts';

export const RESOURCE_TEMPLATE_GENERATION_ANNOTATION = 'resourcetemplate.karmada.io/generation';

type Reflector = (obj: Json, status: Json) => Json | undefined;

const REFLECTORS: Record<string, Reflector> = {
  Deployment: (obj, s) => withGeneration(obj, { ...pickInts(s, ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'observedGeneration']), ...deploymentConditionsOf(s) }),
  StatefulSet: (obj, s) => withGeneration(obj, pickInts(s, ['availableReplicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas', 'observedGeneration'], ['replicas'])),
  ReplicaSet: (obj, s) => withGeneration(obj, pickInts(s, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], ['replicas'])),
  ReplicationController: (obj, s) => withGeneration(obj, pickInts(s, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], ['replicas'])),
  DaemonSet: (obj, s) => withGeneration(obj, pickInts(s, ['numberAvailable', 'updatedNumberScheduled', 'numberUnavailable', 'observedGeneration'],
    ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'])),
  Job: (_obj, s) => ({ ...pickInts(s, ['active', 'succeeded', 'failed']), ...pick(s, ['conditions', 'startTime', 'completionTime']) }),
  PodDisruptionBudget: (_obj, s) => ({ ...pickInts(s, [], ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']), ...pick(s, ['disruptedPods']) }),
  HorizontalPodAutoscaler: (_obj, s) => pickInts(s, ['currentReplicas'], ['desiredReplicas']),
  Service: (obj, s) => (rec(obj.spec).type === 'LoadBalancer' ? { loadBalancer: rec(s.loadBalancer) } : undefined),
};

/** The status to record for this member object, or undefined when there is none (yet). */
export function reflectStatus(memberObject: unknown): Record<string, unknown> | undefined {
  const obj = rec(memberObject);
  const status = statusOf(obj);
  if (!status) return undefined;
  const reflector = REFLECTORS[String(obj.kind ?? '')];
  if (!reflector) return { ...status };
  return reflector(obj, status);
}

/**
 * A Deployment's Available and Progressing conditions, without their times (which would rewrite the
 * binding on every member resync): the template's own are built from them (deployment-conditions.ts).
 */
function deploymentConditionsOf(s: Json): Json {
  const conditions = (Array.isArray(s.conditions) ? s.conditions : []).map(rec)
    .filter((c) => (DEPLOYMENT_CONDITION_TYPES as readonly unknown[]).includes(c.type))
    .map((c) => pick(c, ['type', 'status', 'reason', 'message']));
  return conditions.length > 0 ? { conditions } : {};
}

function withGeneration(obj: Json, fields: Json): Json | undefined {
  const meta = rec(obj.metadata);
  const raw = rec(meta.annotations)[RESOURCE_TEMPLATE_GENERATION_ANNOTATION];
  const templateGeneration = raw === undefined ? 0 : Number(raw);
  // Karmada fails the reflection on an unparsable annotation; nothing is reflected then.
  if (!Number.isInteger(templateGeneration)) return undefined;
  const out: Json = {};
  if (int(meta.generation) !== 0) out.generation = int(meta.generation);
  if (templateGeneration !== 0) out.resourceTemplateGeneration = templateGeneration;
  Object.assign(out, fields);
  // An empty status means the member controller has not written one yet.
  return Object.keys(out).length === 0 ? undefined : out;
}
