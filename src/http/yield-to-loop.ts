// Between the synchronous steps of a large body's work (decode, translate,
// serialise), the event loop gets a turn: whatever other requests have ready
// runs before the next step, so one 1 MB write is several short stalls for a
// neighbour instead of one long one (ADR 0026). setImmediate, not a resolved
// promise: microtasks run before any I/O callback, so they would not let the
// neighbours in at all.

/** Bodies from this size on are worked on in steps with a turn of the loop between them. */
export const STEP_BODY_BYTES = 64 * 1024;

/**
 * Is a body (bytes, or a JSON line's characters) large enough to be worked on in steps? The one
 * test every reader, writer and parser uses, so the threshold cannot drift between them.
 */
export function isLarge(size: number): boolean {
  return size >= STEP_BODY_BYTES;
}

export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when the body is large enough for its next step to be a stall worth cutting. */
export async function yieldIfLarge(bytes: number): Promise<void> {
  if (isLarge(bytes)) await yieldToLoop();
}
