// The marks the engine puts on what it applies to members (Karmada's keys), in
// core so the pure ownership rules (trust/) and the engine read the same ones.
export const MANAGED_LABEL = 'karmada.io/managed';
/** The binding's uid: survives renames of nothing, and fits a label value (names may not). */
export const PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';

// Keys only the engine may set on what it applies: all of Karmada's (`karmada.io/`, `*.karmada.io/`: permanent
// ids, binding, policy and Work names, template generation, conflict resolution), Warren's propagation marks and
// its tenancy keys (the tenant label is the engine's value, put back by memberManifest).
// A template's or an override's values under them would steer whoever reads them (the engine, Karmada tools,
// another binding's clean-up), so a member copy carries the engine's values alone (memberManifest).
const ENGINE_KEY = /^(([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)*karmada\.io|propagation\.warren\.dev|tenancy\.warren\.dev)\//;

export function isEngineKey(key: string): boolean {
  return ENGINE_KEY.test(key);
}

/** The map without the engine's keys (undefined stays undefined). */
export function withoutEngineKeys(map: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!map) return map;
  return Object.fromEntries(Object.entries(map).filter(([key]) => !isEngineKey(key)));
}
