// metav1.LabelSelector: syntax checks (ValidateLabelSelector) and matching,
// which the workload checks need for "selector does not match template labels".
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { forbidden, index, invalidValue, required } from './field-errors.ts';
import { isQualifiedName } from './name-rules.ts';
import { validateLabels } from './metadata.ts';

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export function validateLabelSelector(selector: unknown, base: string): StatusCause[] {
  if (!isObject(selector)) return [];
  const causes = validateLabels(selector.matchLabels, `${base}.matchLabels`);
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  exprs.forEach((raw, i) => {
    const e = (isObject(raw) ? raw : {}) as { key?: unknown; operator?: unknown; values?: unknown };
    const at = index(`${base}.matchExpressions`, i);
    const values = Array.isArray(e.values) ? e.values : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) causes.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        causes.push(invalidValue(`${at}.operator`, String(e.operator ?? ''), 'not a valid selector operator'));
    }
    const key = String(e.key ?? '');
    for (const msg of isQualifiedName(key)) causes.push(invalidValue(`${at}.key`, key, msg));
  });
  return causes;
}

/** True when the selector selects nothing in particular (no labels, no expressions). */
export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

export function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In': if (!has || !values.includes(value ?? '')) return false; break;
      case 'NotIn': if (has && values.includes(value ?? '')) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}
