// When a write's answer has left the gateway: quota admitters settle what they
// reserved only then, so the next write of the tenant sees this one's outcome.
import type { ServerResponse } from 'node:http';

/** Resolves when the response has gone out (or the client went away), or after the timeout. */
export function answered(res: ServerResponse, timeoutMs: number): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done(): void {
      clearTimeout(timer);
      res.off('finish', done);
      res.off('close', done);
      resolve();
    }
    res.once('finish', done);
    res.once('close', done);
  });
}

export const succeeded = (res: ServerResponse): boolean => res.statusCode >= 200 && res.statusCode < 300;
