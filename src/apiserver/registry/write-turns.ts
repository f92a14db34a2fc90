// A registry write as steps (issue 13, break 5): each write is a generator that
// yields between its expensive phases (patch, unknown fields, normalisation,
// validation, managedFields, the no-op check) and ends with the store's
// compare-and-swap on the resourceVersion it read. Run at once (runNow) it is
// the synchronous write it always was; run in turns (writeInTurns) the event
// loop serves other requests between the phases, so a neighbour's GET waits
// for one phase of a 1 MB write, not for all of them. What another write
// commits in between is caught at the commit (kube's GuaranteedUpdate: compute,
// then CAS), never overwritten.
import { ApiError } from '../../core/api-error.ts';
import type { WriteOptions } from './resource-api.ts';

/** A write's phases: `yield` marks where the loop may take a turn; the return value is the written object. */
export type WriteSteps<T> = Generator<void, T, void>;

export function runNow<T>(steps: WriteSteps<T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

async function runInTurns<T>(steps: WriteSteps<T>, between: () => Promise<void>): Promise<T> {
  let step = steps.next();
  while (step.done !== true) {
    await between();
    step = steps.next();
  }
  return step.value;
}

// The Conflicts the commit's own compare-and-swap raised: the only ones computing the write again can
// change. A client's stale resourceVersion or a PUT's uid precondition is the same 409 on every attempt.
const casConflicts = new WeakSet<object>();

/**
 * Runs the commit (the store's compare-and-swap on the resourceVersion this attempt read) and marks
 * a Conflict it raises as this attempt's own, which writeInTurns may retry.
 */
export function commitOrMark<T>(commit: () => T): T {
  try {
    return commit();
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'Conflict') casConflicts.add(err);
    throw err;
  }
}

function isOwnCasConflict(err: unknown): boolean {
  return err instanceof ApiError && casConflicts.has(err);
}

/** Attempts in turns before the last one, which runs at once so that a busy object cannot starve a writer. */
const TURN_ATTEMPTS = 3;

/**
 * Runs the write in turns. A Conflict from the commit's own compare-and-swap means the object
 * changed between the read and the commit: the write is computed again from the new object, as
 * kube-apiserver retries its GuaranteedUpdate. Any other Conflict (a client's stale
 * resourceVersion, a uid precondition) is the answer at once: no attempt could change it.
 */
export async function writeInTurns<T>(attempt: () => WriteSteps<T>, options: WriteOptions, between: () => Promise<void>): Promise<T> {
  const warningsBefore = options.warnings?.length ?? 0;
  for (let i = 0; i < TURN_ATTEMPTS; i++) {
    try {
      return await runInTurns(attempt(), between);
    } catch (err) {
      if (!isOwnCasConflict(err)) throw err;
      // Each attempt records its own warnings: keep the last attempt's only.
      options.warnings?.splice(warningsBefore);
    }
  }
  return runNow(attempt());
}
