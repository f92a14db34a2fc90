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
// its ClientHello stays in the kernel), and only so many handshakes are under
// way at any time; the next waiting connection starts when one finishes
// (secure, or failed). So no turn has more than that many handshakes (and
// first requests) to finish, and the open connections' requests are served
// between them. The bound follows the loop's delay (core/fairness/
// handshake-limit.ts): a fixed 16 still made turns of 15-30 ms in the bench,
// and a fixed 1-2 would cap new connections at 1-2 per round trip across a
// WAN. The delay is sampled only while connections wait or the bound is
// below its ceiling, so an idle gateway pays nothing.
import type { Socket } from 'node:net';
import type { Server } from 'node:tls';
import { HandshakeLimit } from '../../core/fairness/handshake-limit.ts';
import { eventLoopDelay, type EventLoopDelay } from './event-loop-delay.ts';
import { DEFAULT_CONCURRENT_HANDSHAKES, type FairnessConfig } from './fairness-config.ts';
import { DEFAULT_TARGET_LAG_MS } from './flood-pacing.ts';

type ConnectionListener = (socket: Socket) => void;

/** The parts of a TLS server the gate uses (a tls.Server or an https.Server). */
export type GatedServer = Pick<Server, 'listeners' | 'removeListener' | 'on'> & { pauseOnConnect?: boolean };

export interface HandshakeGateStats {
  /** Connections accepted, waiting for their turn to start the handshake. */
  waiting: number;
  /** Handshakes under way. */
  inProgress: number;
  /** Handshakes allowed at once now. */
  limit: number;
}

export interface HandshakeGateOptions {
  /** The ceiling of handshakes at once (fairness.concurrentHandshakes); 0: no gate. */
  maxInProgress: number;
  /** The mean loop delay (ms) above which the bound halves (fairness.pacing.targetLagMs). */
  targetLagMs: number;
  /** How often the bound is judged while it adapts. */
  windowMs?: number;
  /** The loop delay; default this event loop's (tests pass their own). */
  delay?: EventLoopDelay;
  /** The window timer; default setInterval (tests crank it by hand). */
  every?: (ms: number, tick: () => void) => { stop(): void };
}

const DEFAULT_WINDOW_MS = 50;

/** The gate's options from the fairness config: the ceiling, and the pacer's loop-delay target. */
export function handshakeGateOptions(config: FairnessConfig = {}): HandshakeGateOptions {
  return { maxInProgress: config.concurrentHandshakes ?? DEFAULT_CONCURRENT_HANDSHAKES, targetLagMs: config.pacing?.targetLagMs ?? DEFAULT_TARGET_LAG_MS };
}

/**
 * Bounds the TLS handshakes under way (see above). Install once, after the
 * server is created and before it listens: it takes over the server's own
 * 'connection' listeners (the one that wraps the socket in TLS), and counts a
 * handshake done at 'secureConnection' or 'tlsClientError' (a peer that
 * leaves mid-handshake, or Node's handshake timeout, ends in the latter).
 */
export function gateHandshakes(server: GatedServer, options: HandshakeGateOptions): HandshakeGateStats {
  const stats: HandshakeGateStats = { waiting: 0, inProgress: 0, limit: options.maxInProgress };
  if (!(options.maxInProgress > 0)) return stats;
  const bound = new HandshakeLimit({ max: options.maxInProgress, min: 1 });
  const delay = options.delay ?? eventLoopDelay();
  const every = options.every ?? everyInterval;
  const listeners = server.listeners('connection') as ConnectionListener[];
  for (const listener of listeners) server.removeListener('connection', listener);
  // A paused new socket is not read: its ClientHello waits in the kernel, not in our memory.
  server.pauseOnConnect = true;
  const waiting: Socket[] = [];
  let windows: { stop(): void } | undefined;
  const startWaiting = (): void => {
    while (stats.inProgress < bound.current() && waiting.length > 0) {
      const socket = waiting.shift() as Socket;
      // A peer that went away while it waited (the socket is not read, so mostly a reset) takes no place.
      if (socket.destroyed) continue;
      stats.inProgress++;
      for (const listener of listeners) listener.call(server, socket);
    }
    stats.waiting = waiting.length;
    stats.limit = bound.current();
    if (!windows && waiting.length > 0) {
      delay.start();
      delay.sample();
      windows = every(options.windowMs ?? DEFAULT_WINDOW_MS, judge);
    }
  };
  const judge = (): void => {
    bound.tick(delay.sample() / options.targetLagMs);
    if (waiting.length === 0 && bound.atCeiling()) {
      windows?.stop();
      windows = undefined;
      delay.stop();
    }
    startWaiting();
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

function everyInterval(ms: number, tick: () => void): { stop(): void } {
  const timer = setInterval(tick, ms);
  // The server keeps the process alive, not the gate.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
