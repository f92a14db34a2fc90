// The text of /livez, /readyz and /healthz, exactly as kube-apiserver writes it
// (k8s.io/apiserver/pkg/server/healthz), so probes, scripts and people that
// read kube's answers read ours:
//   all pass          200 "ok"            (with ?verbose: one line per check, then "<name> check passed")
//   any fails         500 one line per check, then "<name> check failed"
//   a failed line     "[-]<check> failed: reason withheld" (the endpoint is public; the reason goes to the log)
//   an excluded check "[+]<check> excluded: ok"
//   /<endpoint>/<check>: 200 "ok", or 500 "internal server error: <reason>"
// Pure: the endpoint runs the checks and passes their results here.

export interface CheckResult {
  name: string;
  excluded?: boolean;
  /** Why it failed; absent when it passed (or was excluded). */
  failure?: string;
}

export interface HealthReport {
  status: 200 | 500;
  body: string;
  /** Names of the failed checks, with their reasons, for the log. */
  failed: Array<{ name: string; reason: string }>;
}

export function buildHealthReport(endpoint: string, results: CheckResult[], unmatchedExcludes: string[], verbose: boolean): HealthReport {
  const lines: string[] = [];
  const failed: HealthReport['failed'] = [];
  for (const result of results) {
    if (result.excluded) lines.push(`[+]${result.name} excluded: ok`);
    else if (result.failure === undefined) lines.push(`[+]${result.name} ok`);
    else {
      lines.push(`[-]${result.name} failed: reason withheld`);
      failed.push({ name: result.name, reason: result.failure });
    }
  }
  if (unmatchedExcludes.length > 0) {
    const quoted = [...new Set(unmatchedExcludes)].sort().map((n) => JSON.stringify(n)).join(', ');
    lines.push(`warn: some health checks cannot be excluded: no matches for ${quoted}`);
  }
  // Kube is always verbose on failure: the probe's log then shows which check failed.
  const listing = lines.map((line) => `${line}\n`).join('');
  if (failed.length > 0) return { status: 500, body: `${listing}${endpoint} check failed\n`, failed };
  if (!verbose) return { status: 200, body: 'ok', failed };
  return { status: 200, body: `${listing}${endpoint} check passed\n`, failed };
}

export function buildSingleCheckReport(result: CheckResult): HealthReport {
  if (result.failure === undefined) return { status: 200, body: 'ok', failed: [] };
  return { status: 500, body: `internal server error: ${result.failure}\n`, failed: [{ name: result.name, reason: result.failure }] };
}
