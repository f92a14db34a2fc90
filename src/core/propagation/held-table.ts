// Table rows of held objects (ADR 0023). The upstream apiserver prints a row
// from the object it stores, which is the held form: a propagated Deployment
// of 3 replicas would read READY 0/0, a CronJob SUSPEND True, a DaemonSet's
// NODE SELECTOR the held term. The row's object (PartialObjectMetadata by
// default, or the whole object) still carries the marks, so the cells that
// come from the held fields and from `.status` are printed again from the
// tenant's values and the engine's status, by column name (the columns differ
// between kube versions: a 1.20 Job has no Status column). Without a row
// object (includeObject=None) nothing tells a held row apart: its cells stay
// the host's.
import type { KubeObject } from '../types.ts';
import { ageSince, humanDuration } from '../table/human-duration.ts';
import { printBool, str } from '../table/cell-format.ts';
import { jobStatus } from '../table/printers-workloads.ts';
import { desiredOf, heldStatusOf, isHeld, type DesiredValues } from './host-hold.ts';
import { HELD_NODE_SELECTOR_KEY, heldKindOf } from './held-kinds.ts';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
type Cells = Record<string, (cell: unknown) => unknown>;
interface Row { desired: DesiredValues; status: Record<string, unknown>; obj: KubeObject; now: Date }

/** The host's Node Selector cell (`k=v,...`, sorted, or `<none>`) without the held term. */
function withoutHeldTerm(cell: unknown): unknown {
  if (typeof cell !== 'string') return cell;
  const terms = cell.split(',').filter((t) => t !== `${HELD_NODE_SELECTOR_KEY}=true`);
  return terms.length === 0 ? '<none>' : terms.join(',');
}

/**
 * A Job's Completions cell: the host printed its own succeeded count over the completions (or `/1` when
 * completions is unset: held, its parallelism is 0, so never `of N`). Without completions and with the
 * tenant's parallelism above 1, kube prints `s/1 of p`; with completions 1 written out it prints `s/1`,
 * which the row cannot tell apart: read as unset (a work queue).
 */
function jobCompletions(cell: unknown, row: Row): unknown {
  const match = typeof cell === 'string' ? /^\d+\/(\d+)$/.exec(cell) : null;
  if (!match) return cell;
  const succeeded = count(row.status.succeeded);
  const parallelism = row.desired.parallelism ?? 1;
  return match[1] === '1' && parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/${match[1]}`;
}

function jobDuration(row: Row): string {
  const start = Date.parse(str(row.status.startTime));
  const end = Date.parse(str(row.status.completionTime));
  return Number.isNaN(start) ? '' : humanDuration((Number.isNaN(end) ? row.now.getTime() : end) - start);
}

const CELLS: Record<string, (row: Row) => Cells> = {
  Deployment: ({ desired, status }) => ({
    Ready: () => `${count(status.readyReplicas)}/${desired.replicas ?? 0}`,
    'Up-to-date': () => count(status.updatedReplicas),
    Available: () => count(status.availableReplicas),
  }),
  StatefulSet: ({ desired, status }) => ({ Ready: () => `${count(status.readyReplicas)}/${desired.replicas ?? 0}` }),
  ReplicaSet: ({ desired, status }) => ({ Desired: () => desired.replicas ?? 0, Current: () => count(status.replicas), Ready: () => count(status.readyReplicas) }),
  ReplicationController: ({ desired, status }) => ({ Desired: () => desired.replicas ?? 0, Current: () => count(status.replicas), Ready: () => count(status.readyReplicas) }),
  DaemonSet: ({ status }) => ({
    Desired: () => count(status.desiredNumberScheduled),
    Current: () => count(status.currentNumberScheduled),
    Ready: () => count(status.numberReady),
    'Up-to-date': () => count(status.updatedNumberScheduled),
    Available: () => count(status.numberAvailable),
    'Node Selector': withoutHeldTerm,
  }),
  Job: (row) => ({
    Status: () => jobStatus({ metadata: row.obj.metadata, status: row.status }),
    Completions: (cell) => jobCompletions(cell, row),
    Duration: () => jobDuration(row),
  }),
  CronJob: ({ desired, status, now }) => ({
    Suspend: () => (desired.suspend === undefined ? '<unset>' : printBool(desired.suspend)),
    Active: () => (Array.isArray(status.active) ? status.active.length : 0),
    'Last Schedule': () => (status.lastScheduleTime ? ageSince(status.lastScheduleTime, now) : '<none>'),
  }),
};

/** The row's cells with the held columns printed for the tenant; other rows' cells unchanged. */
export function heldRowCells(columns: ReadonlyArray<{ name: string }>, cells: unknown[], obj: KubeObject, now: Date = new Date()): unknown[] {
  const kind = heldKindOf(obj);
  const printer = kind ? CELLS[kind.kind] : undefined;
  if (!printer || !isHeld(obj)) return cells;
  const printed = printer({ desired: desiredOf(obj), status: heldStatusOf(obj) ?? {}, obj, now });
  return cells.map((cell, i) => {
    const name = columns[i]?.name;
    const print = name !== undefined && Object.prototype.hasOwnProperty.call(printed, name) ? printed[name] : undefined;
    return print ? print(cell) : cell;
  });
}
