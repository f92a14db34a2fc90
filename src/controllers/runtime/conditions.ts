// Status conditions as metav1.Condition: lastTransitionTime moves only when the
// status flips, so a reconcile that finds nothing new writes nothing new (and
// does not wake itself up again through its own watch).
//
// An empty message is left out, not written as "": a real kube-apiserver (1.20.2
// as tested) decodes "" in a custom resource's schema-checked string field as
// null and refuses the whole status write ("must be of type string"), and our
// CRDs make message optional (required: type, status).
import type { Condition } from '../../core/types.ts';

export type { Condition };

export interface ConditionInput {
  type: string;
  status: Condition['status'];
  reason: string;
  message?: string;
}

/** A new list with `input` set; the others are kept in order. */
export function setCondition(conditions: readonly Condition[] | undefined, input: ConditionInput, ctx: { generation?: number; now: Date }): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === input.type);
  const old = index >= 0 ? list[index] : undefined;
  const next: Condition = {
    type: input.type,
    status: input.status,
    reason: input.reason,
    ...(input.message ? { message: input.message } : {}),
    lastTransitionTime: old && old.status === input.status && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(ctx.now),
  };
  if (ctx.generation !== undefined) next.observedGeneration = ctx.generation;
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/** RFC 3339 in whole seconds, as metav1.Time serialises. */
export function rfc3339(at: Date): string {
  return new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
