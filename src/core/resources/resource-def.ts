// What the API knows about one resource: the row that decides its URL, scope,
// discovery entry and behaviour. Built-ins are data (builtin-resources.ts);
// CRDs produce the same shape at run time.

export interface ScaleSubresource {
  /** JSON path (dot form, e.g. ".spec.replicas") of the desired replicas. */
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceDef {
  group: string; // '' for core
  version: string;
  resource: string; // plural
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  /** Subresources served below the object; 'status' and 'scale' get generic handling. */
  subresources?: { status?: boolean; scale?: ScaleSubresource; other?: string[] };
  /** Extra field selectors beyond metadata.name and metadata.namespace. */
  fieldSelectors?: Record<string, string>;
  /** Does a spec change bump metadata.generation? (true for most kinds with a spec) */
  generation?: boolean;
  /** Served from a CustomResourceDefinition (set by the apiserver when it registers the CRD). */
  custom?: boolean;
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function groupVersion(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export function resourceKey(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}
