// OverridePolicy / ClusterOverridePolicy application, in Karmada's order
// (pkg/util/overridemanager):
//  - every matching ClusterOverridePolicy first, then the template namespace's
//    OverridePolicies (only for a namespaced template);
//  - within each, by implicit priority ascending (kind-only or no selectors,
//    then label match, then name match), then by name: the most specific policy
//    is applied last, so it wins;
//  - rules of a policy in order; a rule applies when it has no targetCluster or
//    the cluster matches it; the deprecated top-level targetCluster+overriders
//    pair stands in for overrideRules when there are none;
//  - within a rule, the fixed overrider order image → command → args → labels →
//    annotations → field → (Warren's env) → plaintext, so plaintext can touch up
//    whatever the others wrote.
import { ApiError } from '../../api-error.ts';
import type { KubeObject } from '../../types.ts';
import type { Cluster, OverridePolicy, OverrideRule, Overriders } from '../karmada-types.ts';
import { PRIORITY_MATCH_ALL, PRIORITY_MISMATCH, selectorsPriority } from '../detector/resource-match.ts';
import { matchesClusterAffinity } from '../scheduler/cluster-affinity.ts';
import { applyCommandArgsOverrider } from './command-args-overrider.ts';
import { applyEnvOverrider } from './env-overrider.ts';
import { applyFieldOverrider } from './field-overrider.ts';
import { applyImageOverrider } from './image-overrider.ts';
import { patchInPlace } from './json-patch.ts';
import { applyLabelAnnotationOverrider } from './label-annotation-overrider.ts';
import { OverriderFailure, overrideFailed } from './overrider-failure.ts';

export interface AppliedPolicy { policy: string; namespaced: boolean }

export interface OverrideResult {
  manifest: KubeObject;
  applied: AppliedPolicy[];
}

/** Never mutates its inputs. Throws ApiError 422 naming the policy and field when an overrider cannot apply. */
export function applyOverrides(
  manifest: KubeObject,
  cluster: Cluster,
  overridePolicies: readonly OverridePolicy[],
  clusterOverridePolicies: readonly OverridePolicy[],
): OverrideResult {
  let out = structuredClone(manifest);
  const applied: AppliedPolicy[] = [];
  const groups: Array<[readonly OverridePolicy[], boolean]> = [[clusterOverridePolicies, false]];
  const namespace = manifest.metadata.namespace;
  if (namespace) groups.push([overridePolicies.filter((p) => (p.metadata.namespace ?? namespace) === namespace), true]);
  for (const [policies, namespaced] of groups) {
    for (const policy of orderedMatching(out, policies)) {
      const name = policy.metadata.name ?? '';
      let any = false;
      for (const [rule, field] of rulesOf(policy)) {
        if (!matchesClusterAffinity(rule.targetCluster, cluster)) continue;
        any = true;
        try {
          out = applyRule(out, rule.overriders ?? {}, field);
        } catch (err) {
          if (err instanceof OverriderFailure) throw overrideFailed({ name, namespaced }, err);
          if (err instanceof ApiError) throw err;
          throw overrideFailed({ name, namespaced }, new OverriderFailure(field, (err as Error).message));
        }
      }
      if (any) applied.push({ policy: name, namespaced });
    }
  }
  return { manifest: out, applied };
}

/** The policies that select the resource, in application order. */
export function orderedMatching(resource: KubeObject, policies: readonly OverridePolicy[]): OverridePolicy[] {
  const ranked: Array<{ policy: OverridePolicy; priority: number }> = [];
  for (const policy of policies) {
    const selectors = policy.spec?.resourceSelectors ?? [];
    const priority = selectors.length === 0 ? PRIORITY_MATCH_ALL : selectorsPriority(resource, selectors);
    if (priority !== PRIORITY_MISMATCH) ranked.push({ policy, priority });
  }
  ranked.sort((a, b) => a.priority - b.priority || compare(a.policy.metadata.name ?? '', b.policy.metadata.name ?? ''));
  return ranked.map((r) => r.policy);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function rulesOf(policy: OverridePolicy): Array<[OverrideRule, string]> {
  const rules = policy.spec?.overrideRules ?? [];
  if (rules.length > 0) return rules.map((r, i) => [r, `spec.overrideRules[${i}].overriders`]);
  const legacy: OverrideRule = { overriders: policy.spec?.overriders ?? {} };
  if (policy.spec?.targetCluster) legacy.targetCluster = policy.spec.targetCluster;
  return [[legacy, 'spec.overriders']];
}

function applyRule(manifest: KubeObject, o: Overriders, field: string): KubeObject {
  let m = manifest;
  (o.imageOverrider ?? []).forEach((x, i) => { m = applyImageOverrider(m, x, `${field}.imageOverrider[${i}]`); });
  (o.commandOverrider ?? []).forEach((x, i) => { m = applyCommandArgsOverrider(m, 'command', x, `${field}.commandOverrider[${i}]`); });
  (o.argsOverrider ?? []).forEach((x, i) => { m = applyCommandArgsOverrider(m, 'args', x, `${field}.argsOverrider[${i}]`); });
  (o.labelsOverrider ?? []).forEach((x) => { m = applyLabelAnnotationOverrider(m, 'labels', x); });
  (o.annotationsOverrider ?? []).forEach((x) => { m = applyLabelAnnotationOverrider(m, 'annotations', x); });
  (o.fieldOverrider ?? []).forEach((x, i) => { m = applyFieldOverrider(m, x, `${field}.fieldOverrider[${i}]`); });
  (o.envOverrider ?? []).forEach((x, i) => { m = applyEnvOverrider(m, x, `${field}.envOverrider[${i}]`); });
  const plaintext = o.plaintext ?? [];
  if (plaintext.length > 0) {
    m = patchInPlace(m, plaintext.map((p) => ({ op: p.operator, path: p.path, value: p.value })), (i) => `${field}.plaintext[${i}]`);
  }
  return m;
}
