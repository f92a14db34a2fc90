// What every page gets: the latest state, a way to say something to the
// user, and a hook to be told of the next state.
import type { ConsoleState } from '../../src/console/view/console-types.ts';

export interface PageContext {
  state(): ConsoleState | undefined;
  notify(text: string, tone?: 'ok' | 'bad'): void;
}

export interface Page {
  /** A new state arrived (live): redraw what depends on it, keep what the user is typing. */
  update(state: ConsoleState): void;
  leave?(): void;
}
