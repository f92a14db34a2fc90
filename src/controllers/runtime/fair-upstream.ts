// An Upstream whose JSON requests take their turn in a FairGate's line for
// `key` (a tenant id, or '' for the engine's own work). Streams (watches) are
// long-lived and never take a slot. The key is bound when the client is made,
// not read from an AsyncLocalStorage scope: on Node 20 one scope's run() turns
// on promise hooks for every promise of the process (propagation/tenant-clients.ts).
import type { FairGate } from './fair-gate.ts';
import type { Upstream } from '../../kube/upstream.ts';

export function fairUpstream(upstream: Upstream, gate: FairGate, key: string): Upstream {
  return {
    server: upstream.server,
    requestOptions: () => upstream.requestOptions(),
    request: (method, path, body, headers) => gate.run(key, () => upstream.request(method, path, body, headers)),
    stream: (path, headers) => upstream.stream(path, headers),
    close: () => upstream.close(),
  };
}
