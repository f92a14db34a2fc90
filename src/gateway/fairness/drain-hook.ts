// How a long-running response ends cleanly when the gateway shuts down. The
// writer of a stream (proxied watch, cache watch) knows how to stop writing and
// send the final chunk; the in-flight tracker only knows the response. The hook
// sits on the response, behind typed accessors, so neither imports the other.
import type { ServerResponse } from 'node:http';

const hooks = new WeakMap<ServerResponse, () => void>();

/** Registers how `res` ends cleanly: stop the writer, flush, end the response. */
export function setDrainHook(res: ServerResponse, end: () => void): void {
  hooks.set(res, end);
}

export function drainHookOf(res: ServerResponse): (() => void) | undefined {
  return hooks.get(res);
}
