// Query parameters → registry options, with kube-apiserver's validation.
import { badRequest } from '../../core/api-error.ts';
import type { DeleteOptions, FieldValidation, ListQuery, WatchQuery, WriteOptions } from '../registry/resource-api.ts';

function optionalNumber(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(raw)}`);
  return value;
}

function optionalString(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === null || raw === '' ? undefined : raw;
}

export function listQuery(query: URLSearchParams, namespace: string): ListQuery {
  const out: ListQuery = {};
  if (namespace) out.namespace = namespace;
  const label = optionalString(query, 'labelSelector');
  const field = optionalString(query, 'fieldSelector');
  const limit = optionalNumber(query, 'limit');
  const cont = optionalString(query, 'continue');
  const rv = query.get('resourceVersion');
  const rvMatch = optionalString(query, 'resourceVersionMatch');
  if (label !== undefined) out.labelSelector = label;
  if (field !== undefined) out.fieldSelector = field;
  if (limit !== undefined) out.limit = limit;
  if (cont !== undefined) out.continue = cont;
  if (rv !== null) out.resourceVersion = rv;
  if (rvMatch !== undefined) {
    if (rvMatch !== 'NotOlderThan' && rvMatch !== 'Exact') throw badRequest(`resourceVersionMatch: Unsupported value: "${rvMatch}": supported values: "Exact", "NotOlderThan"`);
    out.resourceVersionMatch = rvMatch;
  }
  return out;
}

export function watchQuery(query: URLSearchParams, namespace: string): WatchQuery & { timeoutSeconds?: number } {
  const out: WatchQuery & { timeoutSeconds?: number } = listQuery(query, namespace);
  const bookmarks = query.get('allowWatchBookmarks');
  if (bookmarks === 'true' || bookmarks === '1') out.allowWatchBookmarks = true;
  const initial = query.get('sendInitialEvents');
  if (initial === 'true') out.sendInitialEvents = true;
  const timeout = optionalNumber(query, 'timeoutSeconds');
  if (timeout !== undefined) out.timeoutSeconds = timeout;
  return out;
}

const FIELD_VALIDATION = new Set(['Strict', 'Warn', 'Ignore']);

/** Default field manager: the user agent up to the first '/', as kube-apiserver derives it. */
export function defaultFieldManager(userAgent: string | undefined): string {
  const prefix = (userAgent ?? '').split('/')[0]?.trim() ?? '';
  return prefix.slice(0, 128) || 'unknown';
}

export function writeOptions(query: URLSearchParams, userAgent: string | undefined, subresource: string): WriteOptions {
  const options: WriteOptions = { warnings: [] };
  const dryRun = query.getAll('dryRun');
  for (const value of dryRun) {
    if (value !== 'All') throw badRequest(`Invalid dry run value: dryRun: Unsupported value: "${value}": supported values: "All"`);
    options.dryRun = true;
  }
  const validation = query.get('fieldValidation');
  if (validation !== null && validation !== '') {
    if (!FIELD_VALIDATION.has(validation)) throw badRequest(`Invalid field validation directive: fieldValidation: Unsupported value: "${validation}": supported values: "Ignore", "Strict", "Warn"`);
    options.fieldValidation = validation as FieldValidation;
  } else {
    options.fieldValidation = 'Warn';
  }
  const manager = query.get('fieldManager');
  if (manager !== null && manager !== '') options.fieldManager = manager;
  const force = query.get('force');
  if (force === 'true') options.force = true;
  if (subresource) options.subresource = subresource;
  return options;
}

export function applyFieldManager(options: WriteOptions, userAgent: string | undefined, isApply: boolean): void {
  if (!options.fieldManager && !isApply) options.fieldManager = defaultFieldManager(userAgent);
}

export function deleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const out: DeleteOptions = {};
  const fromBody = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const policy = (query.get('propagationPolicy') ?? fromBody.propagationPolicy) as string | undefined;
  if (policy !== undefined && policy !== null && policy !== '') {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
      throw badRequest(`propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`);
    }
    out.propagationPolicy = policy;
  }
  const orphan = query.get('orphanDependents') ?? (fromBody.orphanDependents === undefined ? null : String(fromBody.orphanDependents));
  if (out.propagationPolicy === undefined && orphan !== null) out.propagationPolicy = orphan === 'true' ? 'Orphan' : 'Background';
  const preconditions = fromBody.preconditions as DeleteOptions['preconditions'] | undefined;
  if (preconditions && typeof preconditions === 'object') out.preconditions = preconditions;
  const grace = optionalNumber(query, 'gracePeriodSeconds') ?? (typeof fromBody.gracePeriodSeconds === 'number' ? fromBody.gracePeriodSeconds : undefined);
  if (grace !== undefined) out.gracePeriodSeconds = grace;
  const dryRun = query.getAll('dryRun');
  const bodyDryRun = Array.isArray(fromBody.dryRun) ? (fromBody.dryRun as string[]) : [];
  if ([...dryRun, ...bodyDryRun].includes('All')) out.dryRun = true;
  return out;
}
