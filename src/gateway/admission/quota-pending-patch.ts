// A patch's final object exists only inside patchByReadModifyWrite, which
// hands it to admitUpstreamObject just before writing it. The quota forwarder
// registers its check for that request here (keyed by the request's own
// RequestInfo object, so nothing leaks between requests), and
// admitUpstreamObject runs it: a refusal throws before anything is written.
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';

const pending = new WeakMap<RequestInfo, (upstreamObject: KubeObject) => void>();

export function expectPatch(info: RequestInfo, check: (upstreamObject: KubeObject) => void): void {
  pending.set(info, check);
}

/** Runs the quota check registered for this request, if any; throws its refusal. */
export function judgePendingPatch(info: RequestInfo, upstreamObject: KubeObject): void {
  pending.get(info)?.(upstreamObject);
}
