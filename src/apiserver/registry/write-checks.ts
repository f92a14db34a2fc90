// Checks every write must pass before anything is stored: the body names the
// same kind, version, namespace and name as the URL, the namespace exists and is
// not terminating, and the object is valid. Each failure is a Status in kube's words.
import { ApiError, badRequest, invalid, notFound } from '../../core/api-error.ts';
import type { KubeObject, StatusCause } from '../../core/types.ts';
import { groupVersion, type ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store } from '../store/store.ts';
import { isJsonStore } from '../store/json-store.ts';
import type { FieldValidation } from './resource-api.ts';
import { strictDecodingError, unknownFieldWarnings } from '../openapi/unknown-fields.ts';
import { eventsV1CreateCauses } from '../validation/events-v1-strict.ts';
import { toCoreEvent } from '../../core/resources/event-versions.ts';
import { generatedName } from './object-meta.ts';

/** The kinds served in a group version, to tell "no such kind" from "another kind" as kube's decoder does. */
export interface KindsByGroupVersion {
  all(): ResourceDef[];
}

/**
 * A body whose apiVersion or kind is not the request's, in kube's words. Built-in kinds go
 * through kube's scheme: `Secret in version "v1" cannot be handled as a ConfigMap: converting
 * (v1.Secret) to (core.ConfigMap): unknown conversion`, or `no kind "X" is registered for version
 * "g/v" in scheme ...` when the kind is not served there. Custom resources are checked by the CRD
 * handler: another apiVersion is a 400, another kind a 422 on the kind field. kube converts a body
 * of another served version of the same kind; we refuse it (docs/compatibility.md).
 */
export function checkTypeMeta(def: ResourceDef, obj: KubeObject, kinds: KindsByGroupVersion): void {
  const expected = groupVersion(def);
  const apiVersion = obj.apiVersion === undefined || obj.apiVersion === '' ? expected : String(obj.apiVersion);
  const kind = obj.kind === undefined || obj.kind === '' ? def.kind : String(obj.kind);
  if (apiVersion === expected && kind === def.kind) return;
  if (def.custom) {
    if (apiVersion !== expected) {
      throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
    }
    const target: { kind: string; group?: string; name?: string } = { kind, name: obj.metadata?.name ?? '' };
    if (def.group) target.group = def.group;
    throw invalid(target, [{ type: 'FieldValueInvalid', field: 'kind', message: `Invalid value: ${JSON.stringify(kind)}: must be ${def.kind}` }]);
  }
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  const head = `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${def.kind}`;
  const served = kinds.all().some((d) => !d.custom && groupVersion(d) === apiVersion && d.kind === kind);
  if (!served) {
    throw badRequest(`${head}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (kind !== def.kind) {
    throw badRequest(`${head}: converting (${version}.${kind}) to (${internalPackage(def.group)}.${def.kind}): unknown conversion`);
  }
  throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
}

/** The Go package of a group's internal types, as kube's conversion errors name it: core, apps, rbac, networking. */
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0] ?? group;
}

export function checkBodyShape(obj: unknown): asserts obj is KubeObject {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  }
  const meta = (obj as { metadata?: unknown }).metadata;
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
    throw badRequest('json: cannot unmarshal into Go struct field .metadata of type v1.ObjectMeta');
  }
  if (meta === undefined) (obj as KubeObject).metadata = {};
}

export function checkNamespaceMatches(def: ResourceDef, obj: KubeObject, namespace: string): void {
  if (!def.namespaced) return;
  const inBody = obj.metadata.namespace;
  if (inBody !== undefined && inBody !== '' && inBody !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

export function checkNameMatches(obj: KubeObject, name: string): void {
  const inBody = obj.metadata.name;
  if (inBody !== undefined && inBody !== '' && inBody !== name) {
    throw badRequest(`the name of the object (${inBody}) does not match the name on the URL (${name})`);
  }
}

/** kube's NamespaceLifecycle admission: the namespace must exist and not be terminating. */
export function checkNamespaceOpen(store: Store, def: ResourceDef, namespace: string, name?: string): void {
  if (!def.namespaced) return;
  const state = namespaceState(store, namespace);
  if (state === undefined) throw notFound({ resource: 'namespaces', name: namespace });
  if (state === 'terminating') {
    const named = name ? ` "${name}"` : '';
    throw new ApiError('Forbidden', `${def.resource}${def.group ? `.${def.group}` : ''}${named} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      name: name || undefined, group: def.group || undefined, kind: def.resource,
      causes: [{ type: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    });
  }
}

// Every namespaced create asks; parsing the namespace each time is waste. The store hands out the same
// string until the namespace is written again, so the answer is remembered against that very string.
const lastSeen = new WeakMap<Store, Map<string, { json: string; state: 'open' | 'terminating' }>>();

function namespaceState(store: Store, namespace: string): 'open' | 'terminating' | undefined {
  const key = { resource: 'namespaces', namespace: '', name: namespace };
  if (!isJsonStore(store)) {
    const ns = store.get(key);
    return ns ? stateOf(ns) : undefined;
  }
  const json = store.getJson(key);
  let seen = lastSeen.get(store);
  if (json === undefined) {
    seen?.delete(namespace);
    return undefined;
  }
  const known = seen?.get(namespace);
  if (known?.json === json) return known.state;
  const state = stateOf(JSON.parse(json) as KubeObject);
  if (!seen) {
    seen = new Map();
    lastSeen.set(store, seen);
  }
  seen.set(namespace, { json, state });
  return state;
}

function stateOf(ns: KubeObject): 'open' | 'terminating' {
  return ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating' ? 'terminating' : 'open';
}

export function throwIfInvalid(def: ResourceDef, obj: KubeObject, causes: StatusCause[]): void {
  if (causes.length === 0) return;
  const target: { kind: string; group?: string; name?: string } = { kind: def.kind, name: obj.metadata.name ?? '' };
  if (def.group) target.group = def.group;
  throw invalid(target, causes);
}

/** Applies the fieldValidation directive: Strict refuses unknown fields, Warn reports them; both then drop them. */
export function handleUnknownFields(def: ResourceDef, paths: string[], mode: FieldValidation | undefined, warnings: string[] | undefined): void {
  if (paths.length === 0 || mode === 'Ignore') return;
  const fields = paths.map((path) => path.replace(/^\./, ''));
  if (mode === 'Strict') throw strictDecodingError(def.kind, def.version, fields);
  warnings?.push(...unknownFieldWarnings(fields));
}

/**
 * An events.k8s.io/v1 create's checks (kube's ValidateEventCreate for that version: a DNS-subdomain name,
 * eventTime, a reporting controller, ...), before the Event is written as a core one, whose own checks are
 * looser. The message names the name as created, generated if need be, as kube's (which generates the
 * name before it validates). Also a PUT that creates (create-on-update): the name is the URL's.
 */
export function checkEventsV1Create(coreEvents: ResourceDef, input: KubeObject, namespace: string): void {
  const generateName = typeof input.metadata?.generateName === 'string' ? input.metadata.generateName : undefined;
  const given = typeof input.metadata?.name === 'string' ? input.metadata.name : '';
  const name = given || (generateName ? generatedName(generateName) : '');
  const core = { ...toCoreEvent(input), metadata: { ...input.metadata, name, namespace } };
  throwIfInvalid(coreEvents, core, eventsV1CreateCauses(core as unknown as Record<string, unknown>, generateName, name));
}
