// Deployment status as the deployment controller reports it: summed ReplicaSet
// counts and the Available / Progressing conditions with kube's reasons and
// messages (what `kubectl rollout status` reads). Pure.
import { setDeploymentCondition, type WorkloadCondition } from './conditions.ts';

export interface DeploymentStatusInput {
  generation: number | undefined;
  desired: number;
  maxUnavailable: number;
  paused: boolean;
  newReplicaSetName: string | undefined;
  /** Set on the pass that created the new ReplicaSet. */
  createdNewReplicaSet: boolean;
  /** spec.replicas summed over all ReplicaSets */
  specReplicas: number;
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  collisionCount?: number;
  previousConditions: WorkloadCondition[];
  now: string;
}

export function buildDeploymentStatus(input: DeploymentStatusInput): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (input.generation !== undefined) status.observedGeneration = input.generation;
  // omitempty, as in the Go type.
  if (input.replicas) status.replicas = input.replicas;
  if (input.updatedReplicas) status.updatedReplicas = input.updatedReplicas;
  if (input.readyReplicas) status.readyReplicas = input.readyReplicas;
  if (input.availableReplicas) status.availableReplicas = input.availableReplicas;
  const unavailable = Math.max(0, input.specReplicas - input.availableReplicas);
  if (unavailable) status.unavailableReplicas = unavailable;

  let conditions = input.previousConditions;
  const available = input.availableReplicas >= input.desired - input.maxUnavailable;
  conditions = setDeploymentCondition(conditions, available
    ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
    : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }, input.now);

  const rs = input.newReplicaSetName;
  const complete = rs !== undefined && input.updatedReplicas === input.desired && input.replicas === input.desired && input.availableReplicas === input.desired;
  if (input.paused) {
    conditions = setDeploymentCondition(conditions, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' }, input.now);
  } else if (rs !== undefined && input.createdNewReplicaSet) {
    conditions = setDeploymentCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rs}"` }, input.now);
  } else if (complete) {
    conditions = setDeploymentCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rs}" has successfully progressed.` }, input.now);
  } else if (rs !== undefined) {
    conditions = setDeploymentCondition(conditions, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rs}" is progressing.` }, input.now);
  }
  if (conditions.length) status.conditions = conditions;
  if (input.collisionCount) status.collisionCount = input.collisionCount;
  return status;
}
