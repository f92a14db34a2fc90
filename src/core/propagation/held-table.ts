// Table rows of held objects (ADR 0023). The upstream apiserver prints a row
// from the object it stores, which is the held form: a propagated Deployment
// of 3 replicas would read READY 0/0. The row's object (PartialObjectMetadata
// by default, or the whole object) still carries the marks, so the cells that
// come from the held fields and from `.status` are printed again from the
// tenant's replicas and the engine's status. Without a row object
// (includeObject=None) nothing tells a held row apart: its cells stay the host's.
import type { KubeObject } from '../types.ts';
import { desiredOf, hasHeldForm, heldStatusOf, isHeld } from './host-hold.ts';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The row's cells with the held columns printed for the tenant; other rows' cells unchanged. */
export function heldRowCells(columns: ReadonlyArray<{ name: string }>, cells: unknown[], obj: KubeObject): unknown[] {
  if (!hasHeldForm(obj) || !isHeld(obj)) return cells;
  const replicas = desiredOf(obj).replicas ?? 0;
  const status = heldStatusOf(obj) ?? {};
  const printed: Record<string, unknown> = {
    Ready: `${count(status.readyReplicas)}/${replicas}`,
    'Up-to-date': count(status.updatedReplicas),
    Available: count(status.availableReplicas),
  };
  return cells.map((cell, i) => {
    const name = columns[i]?.name;
    return name !== undefined && Object.prototype.hasOwnProperty.call(printed, name) ? printed[name] : cell;
  });
}
