// Polling with a deadline: eventual behaviour (GC, namespace deletion, the
// workload simulator) is asserted by retrying, never by sleeping a fixed time.
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  { timeoutMs = 30_000, intervalMs = 200 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
