// Which config fields can be set from the environment (WARREN_*) and from
// `warren serve` flags, as data: one row per field. Precedence, lowest first:
// defaults < config file < environment < flags (as kubelet and most 12-factor
// services do). Structured fields (fairness.tenants, servingNames as a list)
// come from the file; servingNames also takes a comma-separated value.
export type OverrideType = 'string' | 'integer' | 'number' | 'boolean' | 'list';

export interface OverrideRow {
  /** Dotted path in WarrenConfig. */
  path: string;
  env: string;
  flag: string;
  type: OverrideType;
}

const row = (path: string, type: OverrideType, flag?: string): OverrideRow => ({
  path,
  type,
  // leaderElection.leaseDurationSeconds → WARREN_LEADER_ELECTION_LEASE_DURATION_SECONDS
  env: `WARREN_${path.replace(/\./g, '_').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`,
  // → --leader-election-lease-duration-seconds
  flag: flag ?? path.replace(/\./g, '-').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase(),
});

export const OVERRIDES: readonly OverrideRow[] = [
  row('listen', 'string'),
  row('externalUrl', 'string'),
  row('servingNames', 'list'),
  row('upstream.kubeconfig', 'string'),
  row('upstream.inCluster', 'boolean'),
  row('upstream.auditImpersonate', 'string', 'audit-impersonate'),
  row('upstream.timeoutSeconds', 'number'),
  row('audit.logPath', 'string', 'audit-log-path'),
  row('fairness.enabled', 'boolean'),
  row('fairness.totalSeats', 'integer'),
  row('fairness.retryAfterSeconds', 'integer'),
  row('fairness.adaptive.enabled', 'boolean'),
  row('fairness.adaptive.minSeats', 'integer'),
  row('fairness.adaptive.latencyTolerance', 'number'),
  row('fairness.adaptive.probeIntervalSeconds', 'number'),
  row('fairness.pacing.enabled', 'boolean'),
  row('fairness.pacing.targetLagMs', 'number'),
  row('fairness.pacing.heavyOutstanding', 'integer'),
  row('fairness.pacing.slowStartHoldWindows', 'integer'),
  row('fairness.pacing.heavyConcurrency', 'integer'),
  row('fairness.concurrentHandshakes', 'integer'),
  row('fairness.holdSpread', 'number'),
  row('fairness.holdWhileQueueFull', 'boolean'),
  row('fairness.defaults.seats', 'integer'),
  row('fairness.defaults.queueLength', 'integer'),
  row('fairness.defaults.queueTimeoutMs', 'integer'),
  row('fairness.defaults.longRunning', 'integer'),
  row('fairness.defaults.connections', 'integer'),
  row('metrics.enabled', 'boolean'),
  row('metrics.tenantLabelLimit', 'integer'),
  row('log.level', 'string', 'log-level'),
  row('memory.heapGrowingPercent', 'integer'),
  row('leaderElection.enabled', 'boolean', 'leader-elect'),
  row('leaderElection.namespace', 'string'),
  row('leaderElection.leaseName', 'string'),
  row('leaderElection.identity', 'string'),
  row('leaderElection.leaseDurationSeconds', 'integer'),
  row('leaderElection.renewDeadlineSeconds', 'number'),
  row('leaderElection.retryPeriodSeconds', 'number'),
];

/** The env var naming the config file, and its flag. */
export const CONFIG_FILE_ENV = 'WARREN_CONFIG';
export const CONFIG_FILE_FLAG = 'config';

/**
 * Options for node:util parseArgs: every override as a string flag (booleans
 * too, so `--metrics-enabled=false` works), plus --config and
 * --upstream-kubeconfig (already the name of upstream.kubeconfig's flag).
 */
export function configFlagOptions(): Record<string, { type: 'string' }> {
  const options: Record<string, { type: 'string' }> = { [CONFIG_FILE_FLAG]: { type: 'string' } };
  for (const r of OVERRIDES) options[r.flag] = { type: 'string' };
  return options;
}

/** Parses one override's text; returns an error message instead of throwing. */
export function parseOverride(type: OverrideType, text: string): { value: unknown } | { error: string } {
  switch (type) {
    case 'string':
      return { value: text };
    case 'list':
      return { value: text.split(',').map((s) => s.trim()).filter((s) => s !== '') };
    case 'boolean':
      if (/^(true|1|yes)$/i.test(text)) return { value: true };
      if (/^(false|0|no)$/i.test(text)) return { value: false };
      return { error: `must be true or false, got "${text}"` };
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) return { error: `must be a number, got "${text}"` };
      if (type === 'integer' && !Number.isInteger(n)) return { error: `must be an integer, got "${text}"` };
      return { value: n };
    }
  }
}
