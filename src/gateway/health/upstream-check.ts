// "upstream": can the gateway reach its upstream apiserver, and does it say it
// is ready? GET /readyz with a short deadline. The answer is kept about a
// second, and probes arriving meanwhile share one request: several load
// balancers probing every replica must not turn into a load on the upstream.
// The reason names no address (the health endpoints are public).
import type { Upstream } from '../../kube/upstream.ts';
import { namedCheck, type HealthCheck } from './health-check.ts';

export interface UpstreamCheckOptions {
  /** Default 2 s. */
  timeoutMs?: number;
  /** How long an answer is reused (default 1 s). */
  cacheMs?: number;
  now?: () => number;
}

export function createUpstreamCheck(upstream: Pick<Upstream, 'request'>, options: UpstreamCheckOptions = {}): HealthCheck {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 1_000;
  const now = options.now ?? Date.now;
  let last: { at: number; answer: Promise<string | undefined> } | undefined;

  async function probe(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`upstream did not answer within ${timeoutMs} ms`), timeoutMs);
    });
    const asked = upstream.request('GET', '/readyz').then(
      (res) => (res.status === 200 ? undefined : `upstream /readyz answered ${res.status}`),
      (err: unknown) => `upstream unreachable${codeOf(err)}`,
    );
    try {
      return await Promise.race([asked, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return namedCheck('upstream', () => {
    const at = now();
    if (!last || at - last.at >= cacheMs) last = { at, answer: probe() };
    return last.answer;
  });
}

/** " (ECONNREFUSED)": the error's code, never its message (which names the address). */
function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : '';
}
