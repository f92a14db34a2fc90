// The rules of a Role or ClusterRole exactly as the upstream will store them,
// read from a body that may forge any field. The escalation check must judge
// what will be granted, so it reads the body the way Go's JSON decoder does:
// a null inside a string list becomes "" (so `apiGroups: [null]` is the core
// group, not nothing), an absent or null list is empty, and anything else the
// decoder would refuse is refused here first, with the same 400.
import { badRequest } from '../api-error.ts';
import type { PolicyRule } from './types.ts';

const LISTS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${field}: expected an array of strings`);
  return value.map((v: unknown) => {
    if (v === null) return '';
    if (typeof v !== 'string') throw badRequest(`${field}: expected an array of strings`);
    return v;
  });
}

/** The rules a body grants, as the upstream will decode them; throws 400 where it would fail to decode. */
export function policyRulesOf(value: unknown): PolicyRule[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest('rules: expected an array of PolicyRules');
  return value.map((raw: unknown, i) => {
    if (raw === null) return { verbs: [] };
    if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`rules[${i}]: expected a PolicyRule object`);
    const obj = raw as Record<string, unknown>;
    const rule: PolicyRule = { verbs: stringList(obj.verbs, `rules[${i}].verbs`) };
    for (const field of LISTS) {
      if (field === 'verbs') continue;
      const list = stringList(obj[field], `rules[${i}].${field}`);
      if (list.length > 0) rule[field] = list;
    }
    return rule;
  });
}

/** A roleRef's fields as the decoder reads them: null is "", anything but a string is refused. */
export function roleRefOf(value: unknown): { apiGroup: string; kind: string; name: string } {
  if (value === undefined || value === null) return { apiGroup: '', kind: '', name: '' };
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('roleRef: expected a RoleRef object');
  const obj = value as Record<string, unknown>;
  const field = (name: 'apiGroup' | 'kind' | 'name'): string => {
    const v = obj[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw badRequest(`roleRef.${name}: expected a string`);
    return v;
  };
  return { apiGroup: field('apiGroup'), kind: field('kind'), name: field('name') };
}
