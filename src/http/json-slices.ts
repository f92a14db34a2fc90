// JSON.parse of a large body in slices, with turns of the event loop between
// them (issue 13, ADR 0026). One JSON.parse of a 1-3 MB body is one
// synchronous step of 30 ms (a ConfigMap of 1 MB) to 0.5 s (100,000 small
// objects with keys of their own: V8 builds a hidden class per new key
// sequence), and every other tenant's request waits behind it. Here a first
// pass (skipping strings with indexOf) finds every container that spans more
// than `sliceChars`, and where its members are separated; such a container is
// rebuilt member by member, its small members parsed by JSON.parse in runs of
// about `sliceChars` (`[` + run + `]`, `{` + run + `}`), its large members
// recursively. Between runs, once `stepMs` has passed, the loop gets a turn.
//
// The answer is JSON.parse's, exactly: values come from JSON.parse itself, a
// duplicate key keeps its first position and its last value (assignment does
// the same), and "__proto__" stays an own member (defineProperty, as
// JSON.parse's CreateDataProperty). Anything the slicing does not expect
// (unbalanced brackets, a big value not where a value starts, text after it)
// falls back to one JSON.parse of the whole text, which throws JSON.parse's
// own error, or answers if the text was valid after all.
import { yieldToLoop } from './yield-to-loop.ts';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-scan.ts';

export interface JsonSliceOptions {
  /** Containers longer than this are rebuilt member by member; runs of small members are about this long. */
  sliceChars?: number;
  /** A turn of the loop once a stretch of work has lasted this long. */
  stepMs?: number;
  /** How a turn is given (tests count them). */
  pause?: () => Promise<void>;
}

export const SLICE_CHARS = 16 * 1024;
export const STEP_MS = 8;

/** A container longer than the slice: where it starts and ends, and its top-level commas. */
interface Big {
  start: number;
  end: number;
  object: boolean;
  commas: number[];
}

class Malformed extends Error {}

/** Gives the loop a turn when the current stretch has lasted `stepMs`. */
class Stepper {
  private since = performance.now();
  constructor(private readonly stepMs: number, private readonly pause: () => Promise<void>) {}
  async maybePause(): Promise<void> {
    if (performance.now() - this.since < this.stepMs) return;
    await this.pause();
    this.since = performance.now();
  }
}

/** Index of the quote closing the string whose opening quote is at `open`, or -1. */
export function endOfString(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    for (let k = at - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function firstNonSpace(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The containers longer than `sliceChars`, by start index; undefined when brackets do not balance. */
async function bigContainers(text: string, sliceChars: number, stepper: Stepper): Promise<Map<number, Big> | undefined> {
  const open: Big[] = [];
  const big = new Map<number, Big>();
  let work = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i === -1) return undefined;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      open.push({ start: i, end: -1, object: c === OPEN_OBJECT, commas: [] });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      const top = open.pop();
      if (!top || top.object !== (c === CLOSE_OBJECT)) return undefined;
      if (i - top.start > sliceChars) big.set(top.start, { ...top, end: i });
    } else if (c === COMMA) {
      open[open.length - 1]?.commas.push(i);
    }
    if (++work === 4096) {
      work = 0;
      await stepper.maybePause();
    }
  }
  return open.length === 0 ? big : undefined;
}

/** Own member, as JSON.parse makes it ("__proto__" included). */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

interface Builder {
  text: string;
  big: Map<number, Big>;
  sliceChars: number;
  stepper: Stepper;
}

/** After a large value ends at `end`, only whitespace may come before the member's end. */
function onlySpaceAfter(text: string, end: number, memberEnd: number): void {
  if (firstNonSpace(text, end + 1, memberEnd) !== memberEnd) throw new Malformed();
}

async function build(b: Builder, node: Big): Promise<unknown> {
  const { text } = b;
  const bounds = [node.start, ...node.commas, node.end];
  const result: unknown[] | Record<string, unknown> = node.object ? {} : [];
  let runFrom = -1; // text index where the pending run of small members starts
  const flush = async (to: number): Promise<void> => {
    if (runFrom === -1) return;
    const run = text.slice(runFrom, to);
    runFrom = -1;
    if (node.object) {
      const parsed = JSON.parse(`{${run}}`) as Record<string, unknown>;
      for (const key of Object.keys(parsed)) setMember(result as Record<string, unknown>, key, parsed[key]);
    } else {
      for (const value of JSON.parse(`[${run}]`) as unknown[]) (result as unknown[]).push(value);
    }
    await b.stepper.maybePause();
  };
  // One member with nothing in it: an empty container written with whitespace inside.
  if (bounds.length === 2 && firstNonSpace(text, node.start + 1, node.end) === node.end) return result;
  for (let k = 0; k + 1 < bounds.length; k++) {
    const from = (bounds[k] ?? 0) + 1;
    const to = bounds[k + 1] ?? 0;
    const first = firstNonSpace(text, from, to);
    // An empty member (a trailing or doubled comma) would vanish inside a run's JSON.parse.
    if (first === to) throw new Malformed();
    let valueAt = first;
    if (node.object) {
      if (text.charCodeAt(first) !== QUOTE) throw new Malformed();
      const keyEnd = endOfString(text, first);
      const colon = firstNonSpace(text, keyEnd + 1, to);
      if (keyEnd === -1 || text.charCodeAt(colon) !== COLON) throw new Malformed();
      valueAt = firstNonSpace(text, colon + 1, to);
    }
    const inner = b.big.get(valueAt);
    if (!inner) {
      if (runFrom === -1) runFrom = from;
      if (to - runFrom >= b.sliceChars) await flush(to);
      continue;
    }
    await flush(from - 1);
    onlySpaceAfter(text, inner.end, to);
    const value = await build(b, inner);
    if (Array.isArray(result)) result.push(value);
    else setMember(result, JSON.parse(text.slice(first, endOfString(text, first) + 1)) as string, value);
  }
  await flush(node.end);
  return result;
}

/** JSON.parse(text), in slices with turns of the loop between them when the text is large. */
export async function parseJsonInSlices(text: string, options: JsonSliceOptions = {}): Promise<unknown> {
  const sliceChars = options.sliceChars ?? SLICE_CHARS;
  if (text.length <= sliceChars) return JSON.parse(text);
  const stepper = new Stepper(options.stepMs ?? STEP_MS, options.pause ?? yieldToLoop);
  try {
    const big = await bigContainers(text, sliceChars, stepper);
    const start = firstNonSpace(text, 0, text.length);
    const root = big?.get(start);
    if (!big || !root) return JSON.parse(text);
    onlySpaceAfter(text, root.end, text.length);
    return await build({ text, big, sliceChars, stepper }, root);
  } catch (err) {
    if (!(err instanceof Malformed) && !(err instanceof SyntaxError)) throw err;
    // JSON.parse's own error (or its answer, had the slicing been too strict).
    return JSON.parse(text);
  }
}
