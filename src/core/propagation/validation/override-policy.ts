// (Cluster)OverridePolicy validation: Karmada's CRD schema enums plus its
// webhook (ValidateOverrideSpec). Karmada does NOT check plaintext paths here:
// a bad path is accepted and fails when the override is applied (a binding
// condition then), so Warren accepts it too.
import { invalid as invalidError } from '../../api-error.ts';
import type { ApiError } from '../../api-error.ts';
import type { StatusCause } from '../../types.ts';
import { labelValueErrors, qualifiedNameErrors } from '../../selectors/index.ts';
import { parsePointer } from '../override/json-pointer.ts';
import { checkEnum, invalid, list, rec, required } from './field-errors.ts';
import type { Json } from './field-errors.ts';
import { clusterAffinityCauses } from './placement.ts';
import { kindOf, nameOf, resourceSelectorCauses } from './propagation-policy.ts';

const OPERATORS = ['add', 'remove', 'replace'];
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

// Karmada's emptyOverrides does not look at fieldOverrider; envOverrider is Warren's and counts.
function hasLegacyOverriders(o: Json): boolean {
  return ['plaintext', 'imageOverrider', 'commandOverrider', 'argsOverrider', 'labelsOverrider', 'annotationsOverrider', 'envOverrider']
    .some((k) => list(o[k]).length > 0);
}

export function overridePolicyCauses(obj: unknown): StatusCause[] {
  const spec = rec(rec(obj).spec);
  const causes: StatusCause[] = [...resourceSelectorCauses(spec.resourceSelectors, 'spec.resourceSelectors', 0)];
  if (spec.targetCluster != null) causes.push(...clusterAffinityCauses(spec.targetCluster, 'spec.targetCluster'));
  if (spec.targetCluster != null && spec.overrideRules != null) causes.push(invalid('spec.targetCluster', spec.targetCluster, "overrideRules and targetCluster can't co-exist"));
  if (hasLegacyOverriders(rec(spec.overriders)) && spec.overrideRules != null) causes.push(invalid('spec.overriders', spec.overriders, "overrideRules and overriders can't co-exist"));
  if (spec.overriders != null) causes.push(...overriderCauses(rec(spec.overriders), 'spec.overriders'));
  list(spec.overrideRules).forEach((r, i) => {
    const rule = rec(r);
    const at = `spec.overrideRules[${i}]`;
    if (rule.overriders === undefined) causes.push(required(`${at}.overriders`));
    causes.push(...overriderCauses(rec(rule.overriders), `${at}.overriders`));
    causes.push(...clusterAffinityCauses(rule.targetCluster, `${at}.targetCluster`));
  });
  return causes;
}

function overriderCauses(o: Json, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(o.plaintext).forEach((p, i) => {
    const at = `${path}.plaintext[${i}]`;
    if (typeof rec(p).path !== 'string') causes.push(required(`${at}.path`));
    checkEnum(causes, `${at}.operator`, rec(p).operator, OPERATORS);
  });
  list(o.imageOverrider).forEach((x, i) => {
    const at = `${path}.imageOverrider[${i}]`;
    const img = rec(x);
    checkEnum(causes, `${at}.component`, img.component, ['Registry', 'Repository', 'Tag']);
    checkEnum(causes, `${at}.operator`, img.operator, OPERATORS);
    if (img.predicate != null) {
      const p = rec(img.predicate).path;
      const parsed = parsePointer(typeof p === 'string' ? p : '');
      if (typeof parsed === 'string') causes.push(invalid(`${at}.predicate.path`, p, parsed));
    }
  });
  for (const key of ['commandOverrider', 'argsOverrider']) {
    list(o[key]).forEach((x, i) => {
      const at = `${path}.${key}[${i}]`;
      if (typeof rec(x).containerName !== 'string') causes.push(required(`${at}.containerName`));
      checkEnum(causes, `${at}.operator`, rec(x).operator, ['add', 'remove']);
    });
  }
  list(o.labelsOverrider).forEach((x, i) => {
    const at = `${path}.labelsOverrider[${i}]`;
    checkEnum(causes, `${at}.operator`, rec(x).operator, OPERATORS);
    for (const [k, v] of Object.entries(rec(rec(x).value))) {
      for (const e of qualifiedNameErrors(k)) causes.push(invalid(`${at}.value`, k, e));
      for (const e of labelValueErrors(String(v))) causes.push(invalid(`${at}.value`, v, e));
    }
  });
  list(o.annotationsOverrider).forEach((x, i) => {
    const at = `${path}.annotationsOverrider[${i}]`;
    checkEnum(causes, `${at}.operator`, rec(x).operator, OPERATORS);
    let size = 0;
    for (const [k, v] of Object.entries(rec(rec(x).value))) {
      for (const e of qualifiedNameErrors(k.toLowerCase())) causes.push(invalid(`${at}.value`, k, e));
      size += k.length + String(v).length;
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push({ type: 'FieldValueTooLong', field: `${at}.value`, message: `Too long: must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes` });
  });
  list(o.fieldOverrider).forEach((x, i) => {
    const at = `${path}.fieldOverrider[${i}]`;
    const f = rec(x);
    if (list(f.yaml).length > 0 && list(f.json).length > 0) causes.push(invalid(at, f, 'FieldOverrider has both YAML and JSON set. Only one is allowed'));
    const fp = parsePointer(typeof f.fieldPath === 'string' ? f.fieldPath : '');
    if (typeof f.fieldPath !== 'string') causes.push(required(`${at}.fieldPath`));
    else if (typeof fp === 'string') causes.push(invalid(`${at}.fieldPath`, f.fieldPath, fp));
    for (const form of ['json', 'yaml']) causes.push(...subPatchCauses(list(f[form]), `${at}.${form}`));
  });
  list(o.envOverrider).forEach((x, i) => {
    const at = `${path}.envOverrider[${i}]`;
    if (typeof rec(x).containerName !== 'string') causes.push(required(`${at}.containerName`));
    checkEnum(causes, `${at}.operator`, rec(x).operator, OPERATORS);
    list(rec(x).value).forEach((v, j) => {
      if (typeof rec(v).name !== 'string' || rec(v).name === '') causes.push(required(`${at}.value[${j}].name`));
    });
  });
  return causes;
}

function subPatchCauses(patches: unknown[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  patches.forEach((p, i) => {
    const at = `${path}[${i}]`;
    const patch = rec(p);
    const sub = parsePointer(typeof patch.subPath === 'string' ? patch.subPath : '');
    if (typeof sub === 'string') causes.push(invalid(`${at}.subPath`, patch.subPath, sub));
    checkEnum(causes, `${at}.operator`, patch.operator, OPERATORS);
    const hasValue = patch.value !== undefined && patch.value !== null;
    if ((patch.operator === 'add' || patch.operator === 'replace') && !hasValue) causes.push(invalid(`${at}.value`, null, 'value is required for add or replace operation'));
    if (patch.operator === 'remove' && hasValue) causes.push(invalid(`${at}.value`, patch.value, 'value is not allowed for remove operation'));
  });
  return causes;
}

/** 422 Invalid for a (Cluster)OverridePolicy Karmada would refuse, or undefined when it is accepted. */
export function validateOverridePolicy(obj: unknown): ApiError | undefined {
  const causes = overridePolicyCauses(obj);
  if (causes.length === 0) return undefined;
  return invalidError({ group: 'policy.karmada.io', kind: kindOf(obj, 'OverridePolicy'), ...nameOf(obj) }, causes);
}
