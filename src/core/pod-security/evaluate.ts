// Evaluates a pod against a Pod Security level and words the outcome as kube:
// `violates PodSecurity "restricted:latest": reason (detail), reason (detail)`.
// Every version label is evaluated with the latest checks (see ADR 0027).
import { BASELINE_CHECKS, type PodCheck, type Violation } from './baseline-checks.ts';
import { formatLevelVersion, type LevelVersion } from './namespace-policy.ts';
import { podView } from './pod-view.ts';
import { RESTRICTED_CHECKS } from './restricted-checks.ts';

function checksFor(level: LevelVersion['level']): PodCheck[] {
  if (level === 'privileged') return [];
  const all = level === 'restricted' ? [...BASELINE_CHECKS, ...RESTRICTED_CHECKS] : [...BASELINE_CHECKS];
  const overridden = new Set(all.flatMap((c) => c.overrides ?? []));
  // kube orders checks by ID; plain code-unit order, as Go's sort.Strings.
  return all.filter((c) => !overridden.has(c.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The violations of a pod (its metadata and spec) at a level; empty when it passes. */
export function evaluatePod(level: LevelVersion['level'], metadata: unknown, spec: unknown): Violation[] {
  const pod = podView(metadata, spec);
  const found: Violation[] = [];
  for (const check of checksFor(level)) {
    const v = check.check(pod);
    if (v) found.push(v);
  }
  return found;
}

/**
 * `violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)`;
 * warnings say `would violate PodSecurity ...`.
 */
export function describeViolations(lv: LevelVersion, violations: readonly Violation[], verb: 'violates' | 'would violate' = 'violates'): string {
  const parts = violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason));
  return `${verb} PodSecurity ${JSON.stringify(formatLevelVersion(lv))}: ${parts.join(', ')}`;
}
