// A ConsoleSource without informers, for the live-stream tests: state() answers the last published state,
// and publish() broadcasts a new one as console-source.ts does: the delta from the last published state, once for all.
import type { ConsoleSource, LiveUpdate } from '../../../src/console/server/console-source.ts';
import type { ConsoleState } from '../../../src/console/view/console-types.ts';
import { stateDelta } from '../../../src/console/view/state-delta.ts';

export interface FakeConsoleSource {
  source: ConsoleSource;
  publish(state: ConsoleState): void;
  /** Open subscriptions (one per live stream). */
  listeners(): number;
}

export function fakeConsoleSource(initial: ConsoleState): FakeConsoleSource {
  const listeners = new Set<(u: LiveUpdate) => void>();
  let current = initial;
  const source: ConsoleSource = {
    state: async () => current,
    tenant: () => undefined,
    namespaces: () => [],
    bindings: () => [],
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    stop: () => undefined,
  };
  return {
    source,
    publish(state) {
      const update: LiveUpdate = { previous: current.revision, revision: state.revision, delta: stateDelta(current, state), state: () => state };
      current = state;
      listeners.forEach((l) => l(update));
    },
    listeners: () => listeners.size,
  };
}
