// Pod Security admission, as kube's PodSecurity plugin does it with its default
// configuration (no exemptions, unlabelled namespaces privileged):
//   - a Pod that breaks its namespace's `enforce` level is refused, 403
//     `pods "x" is forbidden: violates PodSecurity "restricted:latest": ...`;
//     updates are checked only when they can change the verdict (images,
//     security annotations), so a pod admitted earlier can still be relabelled;
//   - a Pod or a workload's pod template that breaks the `warn` level gets a
//     `would violate PodSecurity ...` warning; workloads are never refused;
//   - a Namespace whose pod-security labels are not valid is refused, 422.
// It runs after validation, like kube's validating admission; the checks are pure
// (src/core/pod-security).
import { ApiError, invalid } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { describeViolations, evaluatePod, podSpecUpdateIsSignificant, readNamespacePolicy, type NamespacePolicy } from '../../core/pod-security/index.ts';
import type { Store } from '../store/store.ts';

export interface PodSecurityInput {
  store: Store;
  def: ResourceDef;
  obj: KubeObject;
  old: KubeObject | undefined;
  namespace: string;
  subresource: string | undefined;
  warnings: string[] | undefined;
}

type Json = Record<string, unknown>;
const asJson = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** Where each workload kind keeps its pod template. */
const TEMPLATE_PATHS: Record<string, string[]> = {
  'apps/deployments': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
  '/replicationcontrollers': ['spec', 'template'],
  '/podtemplates': ['template'],
};

export function admitPodSecurity(input: PodSecurityInput): void {
  const { def } = input;
  if (def.custom) return;
  if (def.group === '' && def.resource === 'namespaces') {
    if (!input.subresource) checkNamespaceLabels(input.obj);
    return;
  }
  if (def.group === '' && def.resource === 'pods') {
    admitPod(input);
    return;
  }
  const path = TEMPLATE_PATHS[`${def.group}/${def.resource}`];
  if (path && !input.subresource) warnTemplate(input, path);
}

function checkNamespaceLabels(ns: KubeObject): void {
  const { errors } = readNamespacePolicy(ns.metadata.labels);
  if (errors.length === 0) return;
  throw invalid({ kind: 'Namespace', name: ns.metadata.name ?? '' }, errors.map((e) => ({
    type: 'FieldValueInvalid', field: e.field, message: `Invalid value: ${JSON.stringify(e.value)}: ${e.message}`,
  })));
}

function policyOf(store: Store, namespace: string): NamespacePolicy | undefined {
  const ns = store.get({ resource: 'namespaces', namespace: '', name: namespace });
  return ns ? readNamespacePolicy(ns.metadata.labels).policy : undefined;
}

function admitPod(input: PodSecurityInput): void {
  const { obj, old, subresource } = input;
  // Status and the other subresources cannot change what the checks read; ephemeral containers can.
  if (subresource && subresource !== 'ephemeralcontainers') return;
  if (old && !podSpecUpdateIsSignificant(obj, old)) return;
  const policy = policyOf(input.store, input.namespace);
  if (!policy) return;
  if (policy.enforce.level !== 'privileged') {
    const violations = evaluatePod(policy.enforce.level, obj.metadata, obj.spec);
    if (violations.length > 0) {
      const name = obj.metadata.name ?? '';
      throw new ApiError('Forbidden', `pods "${name}" is forbidden: ${describeViolations(policy.enforce, violations)}`, { name, kind: 'pods' });
    }
  }
  warn(input, policy, obj.metadata, obj.spec);
}

function warnTemplate(input: PodSecurityInput, path: string[]): void {
  let template: unknown = input.obj;
  for (const key of path) template = asJson(template)[key];
  if (template === undefined) return;
  const policy = policyOf(input.store, input.namespace);
  if (policy) warn(input, policy, asJson(template).metadata, asJson(template).spec);
}

function warn(input: PodSecurityInput, policy: NamespacePolicy, metadata: unknown, spec: unknown): void {
  if (!input.warnings || policy.warn.level === 'privileged') return;
  const violations = evaluatePod(policy.warn.level, metadata, spec);
  if (violations.length > 0) input.warnings.push(describeViolations(policy.warn, violations, 'would violate'));
}
