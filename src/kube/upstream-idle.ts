// How long a pooled connection to an upstream apiserver may sit idle: shared by the gateway's
// proxy pools (gateway/proxy/upstream-connection.ts) and the controllers' client (upstream-client.ts).

/**
 * How long a pooled upstream connection may sit idle before Warren closes it itself. Below every
 * upstream's own idle limit (Node's server default 5 s, the embedded apiserver's 65 s, kube-apiserver's 90 s),
 * so Warren, not the upstream, ends an idle connection: when the upstream closes first, a request sent on
 * the socket as its FIN is in flight fails, and a write cannot be sent again (it may have landed), so the
 * caller gets a 503. Node's agent keeps free sockets forever unless given a timeout (it reads a server's
 * Keep-Alive hint only when it has one), and the timeout closes only free sockets: a slow answer is not cut.
 * ADR 0036.
 */
export const UPSTREAM_IDLE_SOCKET_MS = 4_000;
