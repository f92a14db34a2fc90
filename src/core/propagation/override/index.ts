export { applyOverrides, orderedMatching } from './apply-overrides.ts';
export type { AppliedPolicy, OverrideResult } from './apply-overrides.ts';
export { parseImage, formatImage, splitHostname } from './image-reference.ts';
export type { ImageComponents } from './image-reference.ts';
export { overrideImage } from './image-overrider.ts';
export { parsePointer, INVALID_POINTER_START } from './json-pointer.ts';
