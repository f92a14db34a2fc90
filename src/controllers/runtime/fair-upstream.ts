// An Upstream whose JSON requests share a FairGate between tenants (the key
// comes from `keyOf`, read when the request is made). Streams (watches) are
// long-lived and never take a slot.
import type { FairGate } from './fair-gate.ts';
import type { Upstream } from '../../kube/upstream.ts';

export function fairUpstream(upstream: Upstream, gate: FairGate, keyOf: () => string): Upstream {
  return {
    server: upstream.server,
    requestOptions: () => upstream.requestOptions(),
    request: (method, path, body, headers) => gate.run(keyOf(), () => upstream.request(method, path, body, headers)),
    stream: (path, headers) => upstream.stream(path, headers),
    close: () => upstream.close(),
  };
}
