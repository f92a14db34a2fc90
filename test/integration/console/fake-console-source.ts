// A ConsoleSource without informers, for the live-stream tests: state() answers the last published state,
// and publish() broadcasts a new one as console-source.ts does (without a shared delta: each stream makes its own).
import type { ConsoleSource, LiveUpdate } from '../../../src/console/server/console-source.ts';
import type { ConsoleState } from '../../../src/console/view/console-types.ts';

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
      current = state;
      listeners.forEach((l) => l({ state, previous: undefined, delta: () => undefined }));
    },
    listeners: () => listeners.size,
  };
}
