// Adapts the pure patch algorithms of src/core/patch to the registry: picks the
// algorithm by patch type and records field managers.
import { ApiError, badRequest, invalid } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { applyJsonPatch } from '../../core/patch/json-patch.ts';
import { applyMergePatch } from '../../core/patch/merge-patch.ts';
import { applyStrategicMergePatch, supportsStrategicMerge, strategicMergeUnsupported } from '../../core/patch/strategic-merge-patch.ts';
import { serverSideApplySteps } from '../../core/patch/server-side-apply.ts';
import { trackUpdateCarrying, type CarriedFields, type TrackedUpdate } from '../../core/patch/track-update.ts';
import type { PatchType, WriteOptions } from './resource-api.ts';
import { timestamp } from './object-meta.ts';

export interface PatchInput {
  type: PatchType;
  live: KubeObject | undefined;
  body: unknown;
  typeName: string | undefined;
  options: WriteOptions;
  now: Date;
  def: ResourceDef;
  name: string;
  namespace: string;
}

function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** The patched object; a server-side apply yields between its phases (the caller may take turns there). */
export function* applyPatchBody(input: PatchInput): Generator<void, KubeObject, void> {
  const { type, live, body } = input;
  let result: unknown;
  switch (type) {
    case 'json':
      result = applyJsonPatch(live, body);
      break;
    case 'merge':
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
      result = applyMergePatch(live as KubeObject, body);
      break;
    case 'strategic':
      if (!supportsStrategicMerge(input.typeName)) throw strategicMergeUnsupported();
      result = applyStrategicMergePatch(live as KubeObject, body, input.typeName);
      break;
    case 'apply': {
      if (!input.options.fieldManager) {
        throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions', name: '' }, [{ type: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }]);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('error decoding YAML: the apply body must be an object');
      const applied = body as KubeObject;
      if (applied.apiVersion !== apiVersionOf(input.def) || applied.kind !== input.def.kind) {
        throw badRequest(`the API version and kind in the data (${String(applied.apiVersion)}, Kind=${String(applied.kind)}) do not match the expected ones (${apiVersionOf(input.def)}, Kind=${input.def.kind})`);
      }
      const outcome = yield* serverSideApplySteps({
        live,
        applied: { ...applied, metadata: { ...(applied.metadata ?? {}), name: applied.metadata?.name ?? input.name } },
        manager: input.options.fieldManager,
        force: input.options.force === true,
        typeName: input.typeName,
        now: timestamp(input.now),
        apiVersion: apiVersionOf(input.def),
        subresource: input.options.subresource,
      });
      result = outcome.object;
      break;
    }
    default:
      throw new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format`);
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw badRequest('the patch produced an object that is not an object');
  const obj = result as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj;
}

export interface ManagerInput {
  previous: KubeObject | undefined;
  next: KubeObject;
  options: WriteOptions;
  now: Date;
  typeName: string | undefined;
  /** The bookkeeping of the write that stored `previous`, when known (carried-fields-cache.ts). */
  carried?: CarriedFields | undefined;
}

/** Records an Update entry in managedFields for the writer, so later applies see who owns what. */
export function recordUpdateManager(input: ManagerInput): TrackedUpdate<KubeObject> {
  const manager = input.options.fieldManager;
  if (!manager) return { object: input.next, members: 0, carry: undefined };
  return trackUpdateCarrying({
    previous: input.previous,
    next: input.next,
    manager,
    now: timestamp(input.now),
    apiVersion: String(input.next.apiVersion ?? ''),
    typeName: input.typeName,
    subresource: input.options.subresource,
    carried: input.carried,
  });
}
