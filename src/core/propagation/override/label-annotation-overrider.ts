// labelsOverrider / annotationsOverrider (Karmada labelannotationoverrider.go):
// add sets the keys (creating the map), replace and remove touch only keys
// that already exist, so a missing key is never an error.
import type { KubeObject } from '../../types.ts';
import type { LabelAnnotationOverrider } from '../karmada-types.ts';

export function applyLabelAnnotationOverrider(manifest: KubeObject, target: 'labels' | 'annotations', overrider: LabelAnnotationOverrider): KubeObject {
  const entries = Object.entries(overrider.value ?? {});
  if (entries.length === 0) return manifest;
  const meta = manifest.metadata;
  const current = meta[target];
  if (overrider.operator === 'add') {
    meta[target] = { ...(current ?? {}), ...Object.fromEntries(entries) };
    return manifest;
  }
  if (!current) return manifest;
  for (const [key, value] of entries) {
    if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
    if (overrider.operator === 'replace') current[key] = value;
    else if (overrider.operator === 'remove') delete current[key];
  }
  return manifest;
}
