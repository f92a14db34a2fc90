// TLS handshakes run before authentication, so before any per-tenant fairness:
// a tenant that opens many connections at once is served by nobody's rules
// until each is secure. Measured in the fairness bench (a trace in the gateway
// child): the flood's 200 connections arrived within 50-100 ms; the gateway
// then finished up to 57-63 handshakes in a single event-loop turn (the
// clients' second flights arrive together, and every ready one is processed
// in the same poll phase), each followed at once by that connection's first
// request (a 429 for most), and the loop went 100-400 ms without a turn.
// A request of a connection already open waits behind all of it. Starting
// at most one handshake per turn did not help: the completions still came
// back together.
//
// The gate: the server stops reading a new connection at once (pauseOnConnect:
// its ClientHello stays in the kernel), and at most `maxInProgress`
// handshakes are under way at any time; the next waiting connection starts
// when one finishes (secure, or failed). So no turn has more than that many
// handshakes (and first requests) to finish, and the open connections' requests
// are served between them. The cost: with a round trip of R, handshakes
// start at most maxInProgress / R per second (16 / 50 ms = 320/s); on
// loopback or a LAN the CPU is the limit anyway.
import type { Socket } from 'node:net';
import type { Server } from 'node:tls';

type ConnectionListener = (socket: Socket) => void;

/** The parts of a TLS server the gate uses (a tls.Server or an https.Server). */
export type GatedServer = Pick<Server, 'listeners' | 'removeListener' | 'on'> & { pauseOnConnect?: boolean };

export interface HandshakeGateStats {
  /** Connections accepted, waiting for their turn to start the handshake. */
  waiting: number;
  /** Handshakes under way. */
  inProgress: number;
}

/**
 * Bounds the TLS handshakes under way to `maxInProgress` (0: no gate).
 * Install once, after the server is created and before it listens: it takes
 * over the server's own 'connection' listeners (the one that wraps the socket
 * in TLS), and counts a handshake done at 'secureConnection' or
 * 'tlsClientError' (a peer that leaves mid-handshake, or Node's handshake
 * timeout, ends in the latter).
 */
export function gateHandshakes(server: GatedServer, maxInProgress: number): HandshakeGateStats {
  const stats: HandshakeGateStats = { waiting: 0, inProgress: 0 };
  if (!(maxInProgress > 0)) return stats;
  const listeners = server.listeners('connection') as ConnectionListener[];
  for (const listener of listeners) server.removeListener('connection', listener);
  // A paused new socket is not read: its ClientHello waits in the kernel, not in our memory.
  server.pauseOnConnect = true;
  const waiting: Socket[] = [];
  const startWaiting = (): void => {
    while (stats.inProgress < maxInProgress && waiting.length > 0) {
      const socket = waiting.shift() as Socket;
      // A peer that went away while it waited (the socket is not read, so mostly a reset) takes no place.
      if (socket.destroyed) continue;
      stats.inProgress++;
      for (const listener of listeners) listener.call(server, socket);
    }
    stats.waiting = waiting.length;
  };
  const finished = (): void => {
    stats.inProgress = Math.max(0, stats.inProgress - 1);
    startWaiting();
  };
  server.on('connection', (socket: Socket) => {
    waiting.push(socket);
    startWaiting();
  });
  server.on('secureConnection', finished);
  server.on('tlsClientError', finished);
  return stats;
}
