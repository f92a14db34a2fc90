// imageOverrider (Karmada overridemanager/imageoverride.go): rewrites the
// registry, repository or tag of every container's image in the pod template
// (or pod), or of the one image at predicate.path. Only `containers`, as in
// Karmada; init containers keep their images.
import type { KubeObject } from '../../types.ts';
import type { ImageOverrider } from '../karmada-types.ts';
import { podSpecPointer } from '../workload/pod-template.ts';
import { formatImage, parseImage, tagOrDigest, withTagOrDigest, withoutTagOrDigest } from './image-reference.ts';
import type { ImageComponents } from './image-reference.ts';
import { getAt, parsePointer } from './json-pointer.ts';
import { patchInPlace } from './json-patch.ts';
import type { PatchOp } from './json-patch.ts';
import { OverriderFailure } from './overrider-failure.ts';

// The kinds Karmada's image overrider understands without a predicate.
const IMAGE_KINDS = new Set(['Pod', 'ReplicaSet', 'Deployment', 'DaemonSet', 'StatefulSet', 'Job']);

export function applyImageOverrider(manifest: KubeObject, overrider: ImageOverrider, field: string): KubeObject {
  const ops: PatchOp[] = [];
  if (overrider.predicate) {
    const path = overrider.predicate.path;
    const image = imageAt(manifest, path, field);
    ops.push({ op: 'replace', path, value: overrideImage(image, overrider, field) });
  } else {
    const spec = podSpecPointer(manifest.kind);
    if (!spec || !IMAGE_KINDS.has(manifest.kind ?? '')) return manifest;
    const containers = getAt(manifest, [...spec, 'containers']);
    if (!Array.isArray(containers)) return manifest;
    containers.forEach((c, i) => {
      const image = (c as { image?: unknown }).image;
      ops.push({ op: 'replace', path: `/${[...spec, 'containers', String(i), 'image'].join('/')}`, value: overrideImage(typeof image === 'string' ? image : '', overrider, field) });
    });
  }
  return patchInPlace(manifest, ops, field);
}

function imageAt(manifest: KubeObject, path: string, field: string): string {
  const tokens = parsePointer(path);
  if (typeof tokens === 'string' || tokens.length === 0) throw new OverriderFailure(`${field}.predicate.path`, `failed to obtain imageValue with predicate path(${path}), error: imagePath should be start with / character`);
  const value = getAt(manifest, tokens);
  if (typeof value !== 'string') {
    throw new OverriderFailure(`${field}.predicate.path`, `failed to obtain imageValue with predicate path(${path}), error: failed to convert path(${tokens[tokens.length - 1] ?? ''}) to string`);
  }
  return value;
}

/** The new image for one overrider, as overrideImage in Karmada. */
export function overrideImage(current: string, overrider: ImageOverrider, field: string): string {
  let c: ImageComponents;
  try {
    c = parseImage(current);
  } catch (err) {
    throw new OverriderFailure(field, `failed to parse image value(${current}), error: ${(err as Error).message}`);
  }
  const value = overrider.value ?? '';
  switch (overrider.component) {
    case 'Registry':
      if (overrider.operator === 'add') c = { ...c, hostname: c.hostname + value };
      else if (overrider.operator === 'replace') c = { ...c, hostname: value };
      else if (overrider.operator === 'remove') c = { ...c, hostname: '' };
      return formatImage(c);
    case 'Repository':
      if (overrider.operator === 'add') c = { ...c, repository: c.repository + value };
      else if (overrider.operator === 'replace') c = { ...c, repository: value };
      else if (overrider.operator === 'remove') c = { ...c, repository: '' };
      return formatImage(c);
    case 'Tag':
      if (overrider.operator === 'add') c = withTagOrDigest(c, tagOrDigest(c) + value);
      else if (overrider.operator === 'replace') c = withTagOrDigest(c, value);
      else if (overrider.operator === 'remove') c = withoutTagOrDigest(c);
      return formatImage(c);
    default:
      throw new OverriderFailure(`${field}.component`, `unsupported image component(${String(overrider.component)})`);
  }
}
