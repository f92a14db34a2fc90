// GET /livez, /readyz and /healthz (kube's deprecated one: the liveness checks),
// each with its named checks; /<endpoint>/<check> runs one; ?verbose lists them
// all; ?exclude=<check> (repeatable) skips one. Answered before authentication,
// as kube-apiserver does, so probes need no credential. The reasons of failed
// checks never leave in the public answer: they go to the log, once each time
// the set of failures of an endpoint changes (a failing probe every few seconds
// must not flood the log with the same line).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HealthCheck } from './health-check.ts';
import { buildHealthReport, buildSingleCheckReport, type CheckResult, type HealthReport } from './health-report.ts';
import { levelled } from '../../observability/log-line.ts';

export type HealthEndpointName = 'livez' | 'readyz' | 'healthz';

export interface HealthEndpointOptions {
  checks: Record<HealthEndpointName, HealthCheck[]>;
  /** A check that has not answered by then has failed (default 5 s). */
  checkTimeoutMs?: number;
  log?: (line: string) => void;
}

export const HEALTH_PATH = /^\/(healthz|livez|readyz)(?:\/([a-z0-9-]+))?\/?$/;

export type HealthHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export function createHealthEndpoint(options: HealthEndpointOptions): HealthHandler {
  const timeoutMs = options.checkTimeoutMs ?? 5_000;
  const lastFailures = new Map<string, string>();
  const log = options.log ?? (() => undefined);

  function noteFailures(endpoint: string, failed: HealthReport['failed']): void {
    const key = failed.map((f) => `${f.name}: ${f.reason}`).join('; ');
    if ((lastFailures.get(endpoint) ?? '') === key) return;
    lastFailures.set(endpoint, key);
    if (failed.length === 0) log(levelled('info', `${endpoint}: every check passes again`, { event: 'health-check-passed', endpoint }));
    else log(levelled('warn', `${endpoint}: ${key}`, { event: 'health-check-failed', endpoint, failed }));
  }

  return async (req, res, url) => {
    const match = HEALTH_PATH.exec(url.pathname);
    const endpoint = match?.[1] as HealthEndpointName | undefined;
    const checks = endpoint ? options.checks[endpoint] : undefined;
    if (!endpoint || !checks) return sendText(res, 404, '404 page not found\n');
    const only = match?.[2];
    if (only !== undefined) {
      const check = checks.find((c) => c.name === only);
      if (!check) return sendText(res, 404, '404 page not found\n');
      const report = buildSingleCheckReport(await runCheck(check, timeoutMs));
      return sendText(res, report.status, report.body);
    }
    const excluded = new Set(url.searchParams.getAll('exclude'));
    const results = await Promise.all(checks.map((check) => (excluded.has(check.name) ? { name: check.name, excluded: true } : runCheck(check, timeoutMs))));
    const unmatched = [...excluded].filter((name) => !checks.some((c) => c.name === name));
    const report = buildHealthReport(endpoint, results, unmatched, url.searchParams.has('verbose'));
    noteFailures(endpoint, report.failed);
    sendText(res, report.status, report.body);
  };
}

/** One check, bounded in time; a throw or a timeout is a failure with its reason. */
export async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    const failure = await Promise.race([Promise.resolve().then(() => check.check()), deadline]);
    return failure === undefined ? { name: check.name } : { name: check.name, failure };
  } catch (err) {
    return { name: check.name, failure: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
