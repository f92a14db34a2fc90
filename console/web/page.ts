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

/**
 * A page's update that redraws only when its part of the state changed: a
 * redraw replaces the buttons under the pointer, and most live states change
 * another part (a member's heartbeat, another tenant).
 */
export function redrawOnChange(part: (state: ConsoleState) => unknown, draw: (state: ConsoleState) => void): (state: ConsoleState) => void {
  let shown = '';
  return (state) => {
    const key = JSON.stringify(part(state));
    if (key === shown) return;
    shown = key;
    draw(state);
  };
}
