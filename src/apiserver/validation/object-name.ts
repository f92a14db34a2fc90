// Which name syntax each kind uses, as kube-apiserver's per-kind
// ValidateXName functions decide. Most kinds are DNS-1123 subdomains; the
// exceptions are listed here, so a new kind only needs a row when it differs.
import type { StatusCause } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { resourceKey } from '../../core/resources/resource-def.ts';
import { invalidValue } from './field-errors.ts';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isValidPathSegmentName, maxLenError } from './name-rules.ts';

/** (name, prefix) → messages; prefix=true when checking a generateName. */
export type NameRule = (name: string, prefix: boolean) => string[];

/** A generateName gets a random suffix, so a trailing '-' is fine there (maskTrailingDash). */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

export const subdomainName: NameRule = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const labelName: NameRule = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const dns1035Name: NameRule = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
export const pathSegmentName: NameRule = (name, prefix) => isValidPathSegmentName(name, prefix);

/** CronJob names get an 11-character suffix on their Jobs, so they stop at 52. */
const CRONJOB_NAME_MAX = 52;
const cronJobName: NameRule = (name, prefix) => {
  const errs = subdomainName(name, prefix);
  if (!prefix && name.length > CRONJOB_NAME_MAX) errs.push(maxLenError(CRONJOB_NAME_MAX));
  return errs;
};

const RULES: Record<string, NameRule> = {
  namespaces: labelName,
  // A core Event's name has no syntax of its own (legacy validation sets none; real 1.20 stores a 2,000-character
  // "Up_per:case" name): only the path-segment rule every object gets. events.k8s.io/v1 is stricter (eventsV1NameCauses).
  events: pathSegmentName,
  services: dns1035Name,
  'roles.rbac.authorization.k8s.io': pathSegmentName,
  'rolebindings.rbac.authorization.k8s.io': pathSegmentName,
  'clusterroles.rbac.authorization.k8s.io': pathSegmentName,
  'clusterrolebindings.rbac.authorization.k8s.io': pathSegmentName,
  persistentvolumes: pathSegmentName,
  'cronjobs.batch': cronJobName,
};

export function nameRuleFor(def: Pick<ResourceDef, 'group' | 'resource'>): NameRule {
  return RULES[resourceKey(def.group, def.resource)] ?? subdomainName;
}

/** A CRD must be named "<spec.names.plural>.<spec.group>". */
export function crdNameRule(obj: Record<string, unknown>): NameRule {
  const spec = (obj.spec ?? {}) as { group?: unknown; names?: { plural?: unknown } };
  const wanted = `${String(spec.names?.plural ?? '')}.${String(spec.group ?? '')}`;
  return (name, prefix) => {
    const errs = subdomainName(name, prefix);
    if (!prefix && name !== wanted) errs.push('must be spec.names.plural+"."+spec.group');
    return errs;
  };
}

function isCrd(def: Pick<ResourceDef, 'group' | 'resource'>): boolean {
  return def.group === 'apiextensions.k8s.io' && def.resource === 'customresourcedefinitions';
}

export function nameRuleForObject(def: Pick<ResourceDef, 'group' | 'resource'>, obj?: Record<string, unknown>): NameRule {
  return isCrd(def) && obj ? crdNameRule(obj) : nameRuleFor(def);
}

/** Causes for metadata.name (no "Required" here: an empty name is the caller's to report). */
export function validateObjectName(def: Pick<ResourceDef, 'group' | 'resource'>, name: string, obj?: Record<string, unknown>): StatusCause[] {
  return nameRuleForObject(def, obj)(name, false).map((msg) => invalidValue('metadata.name', name, msg));
}
