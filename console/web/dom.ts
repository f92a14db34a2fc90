// A tiny element builder: attributes and children in one call, text always as
// text nodes (never innerHTML), so names from the cluster can hold no markup.
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A labelled bar: the native meter carries value and range to assistive technology. */
export function bar(label: string, fraction: number, text: string, over = false): HTMLElement {
  return h('span', { class: over ? 'bar over' : 'bar' },
    h('meter', { min: 0, max: 1, low: 0.7, high: 0.9, optimum: 0, value: fraction.toFixed(3), 'aria-label': `${label}: ${text}` }),
    h('span', { class: 'bar-text' }, `${label} ${text}`));
}

export function badge(text: string, tone: string): HTMLElement {
  return h('span', { class: `badge ${tone}` }, text);
}

export function phaseTone(phase: string): string {
  if (phase === 'Ready') return 'ok';
  if (phase === 'Suspended' || phase === 'Pending') return 'warn';
  return 'bad';
}

/**
 * Redraws inside container without losing the keyboard focus: a live update
 * replaces buttons, and the one focused before is focused again after (found
 * by its data-focus-key, else its accessible name), so a keyboard user is not
 * thrown to the top. A button whose name changes with the state it toggles
 * (Suspend → Resume, a sort mark) carries a data-focus-key that does not.
 */
export function keepingFocus(container: Element, redraw: () => void): void {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && container.contains(active) && active.tagName === 'BUTTON';
  const key = inside ? focusKey(active) : undefined;
  redraw();
  if (!key) return;
  for (const el of container.querySelectorAll<HTMLElement>('button')) {
    if (focusKey(el) === key) {
      el.focus();
      return;
    }
  }
}

function focusKey(el: Element): string | null {
  return el.getAttribute('data-focus-key') ?? el.getAttribute('aria-label') ?? el.textContent;
}
