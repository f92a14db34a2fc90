// How far V8 lets the heap of the process that hosts the propagation engine grow
// past its live data before the next full collection (ADR 0040). V8 picks that
// factor from its own speed measurements, up to 4x when the heap limit is large
// (a machine with 4 GiB or more): at 10,000 templates x 10 members the engine's
// live heap was 213 MiB and its RSS reached 600 MiB at 72% of the run, garbage of
// the request/answer churn that had outlived the young generation waiting for a
// full GC. A fixed factor keeps the heap near its live data at some CPU cost (more
// full collections) and, unlike --max-old-space-size, is no limit: a tenant larger
// than planned costs memory, never a crash.
//
// Trap: V8 reads --heap-growing-percent each time it sets the next limit (after
// every full GC), so setting it at run time takes effect; heap *sizes* (max old
// space, semi-space) are fixed when the isolate starts and could not be set here.
// The default (config-schema.ts DEFAULT_HEAP_GROWING_PERCENT) is 25%.
import { setFlagsFromString } from 'node:v8';

/** Applies the growing factor (1 + percent/100) to this process's heap; 0 leaves V8's own choice. */
export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growing percent must be a whole number >= 0, got ${percent}`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
