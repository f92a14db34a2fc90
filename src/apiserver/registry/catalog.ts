// The set of served resources: built-ins plus whatever the established CRDs add.
// Lookups are by group/version/resource; the preferred version of a group is the
// first one registered (built-ins) or the CRD's storage/first served version.
import { BUILTIN_RESOURCES, BUILTIN_GROUP_ORDER } from '../../core/resources/builtin-resources.ts';
import { resourceKey, type ResourceDef } from '../../core/resources/resource-def.ts';
import { EVENTS_GROUP } from '../../core/resources/event-versions.ts';

/** events.k8s.io Events: stored as core Events, converted on the way in and out. */
export function isEventsV1(def: Pick<ResourceDef, 'group' | 'resource'>): boolean {
  return def.group === EVENTS_GROUP && def.resource === 'events';
}

export interface GroupInfo {
  name: string; // '' for core
  versions: string[]; // preferred first
}

export class ResourceCatalog {
  private readonly builtins: ResourceDef[];
  private custom = new Map<string, ResourceDef[]>(); // CRD name → defs (one per served version, preferred first)
  private byGvr = new Map<string, ResourceDef>();
  private listeners = new Set<() => void>();

  constructor(builtins: readonly ResourceDef[] = BUILTIN_RESOURCES) {
    this.builtins = [...builtins];
    this.reindex();
  }

  /** Replaces the resources a CRD serves (an empty list removes them). */
  setCustom(crdName: string, defs: ResourceDef[]): void {
    if (defs.length === 0) this.custom.delete(crdName);
    else this.custom.set(crdName, defs);
    this.reindex();
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  all(): ResourceDef[] {
    return [...this.builtins, ...[...this.custom.values()].flat()];
  }

  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    if (version === '') return this.preferred(group, resource);
    return this.byGvr.get(`${group}/${version}/${resource}`);
  }

  /** The definition at the group's preferred version. */
  preferred(group: string, resource: string): ResourceDef | undefined {
    const info = this.groups().find((g) => g.name === group);
    for (const version of info?.versions ?? []) {
      const def = this.byGvr.get(`${group}/${version}/${resource}`);
      if (def) return def;
    }
    return undefined;
  }

  /** Storage key shared by every version of a resource (events.k8s.io Events are core Events, as in kube). */
  storageKey(def: Pick<ResourceDef, 'group' | 'resource'>): string {
    if (isEventsV1(def)) return 'events';
    return resourceKey(def.group, def.resource);
  }

  /** The preferred definition behind a storage key ("deployments.apps"), for controllers that see raw store events. */
  byStorageKey(key: string): ResourceDef | undefined {
    const dot = key.indexOf('.');
    const resource = dot < 0 ? key : key.slice(0, dot);
    const group = dot < 0 ? '' : key.slice(dot + 1);
    return this.preferred(group, resource);
  }

  /** Every storage key once (a resource served at several versions shares one). */
  storageKeys(): string[] {
    return [...new Set(this.all().map((def) => this.storageKey(def)))];
  }

  groups(): GroupInfo[] {
    const order: string[] = ['', ...BUILTIN_GROUP_ORDER];
    const versions = new Map<string, string[]>();
    for (const def of this.all()) {
      if (!order.includes(def.group)) order.push(def.group);
      const list = versions.get(def.group) ?? [];
      if (!list.includes(def.version)) list.push(def.version);
      versions.set(def.group, list);
    }
    return order.filter((name) => versions.has(name)).map((name) => ({ name, versions: versions.get(name) ?? [] }));
  }

  resourcesIn(group: string, version: string): ResourceDef[] {
    return this.all().filter((def) => def.group === group && def.version === version);
  }

  private reindex(): void {
    this.byGvr = new Map(this.all().map((def) => [`${def.group}/${def.version}/${def.resource}`, def]));
  }
}
