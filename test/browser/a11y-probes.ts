// What the accessibility test asks the page, as expressions evaluated inside
// it (strings: tsx names inner functions with an `__name` helper the page does
// not have). No dependency: the WCAG 2.1 contrast formula and the accessible
// name's common sources are a few lines each.
import type { Page } from 'puppeteer-core';

declare const document: { activeElement: { matches(s: string): boolean } | null };

/** The focused element: a selector-like description and whether its focus is visible (outline or box-shadow). */
export interface FocusStop { what: string; visible: boolean; label: string }

const FOCUS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { what: 'body', visible: false, label: '' };
  const s = getComputedStyle(el);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
  const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
  const label = el.getAttribute('aria-label') || (el.textContent || '').trim() || el.id || '';
  const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.getAttribute('href') ? '[href=' + el.getAttribute('href') + ']' : '') + ' "' + label.slice(0, 60) + '"';
  return { what, visible: outline || shadow, label };
})()`;

export async function focused(page: Page): Promise<FocusStop> {
  return page.evaluate(FOCUS) as Promise<FocusStop>;
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`,
 * checking at every stop that the focus is visible; fails after `max` stops
 * (the element is not reachable by keyboard). Returns the stops passed.
 */
export async function tabTo(page: Page, selector: string, { back = false, max = 80 } = {}): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  for (let i = 0; i < max; i++) {
    if (back) await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    if (back) await page.keyboard.up('Shift');
    const stop = await focused(page);
    stops.push(stop);
    if (!stop.visible && stop.what !== 'body') throw new Error(`no visible focus indicator on ${stop.what}`);
    const matches = await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
    if (matches) return stops;
  }
  throw new Error(`${selector} not reached by ${back ? 'Shift+Tab' : 'Tab'} in ${max} stops: ${stops.map((s) => s.what).join(' > ')}`);
}

/** Every form control and button without an accessible name, every img without alt. */
const UNNAMED = `(() => {
  const out = [];
  let checked = 0;
  const name = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) return by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' ').trim();
    return (el.getAttribute('aria-label') || '').trim()
      || [...(el.labels || [])].map((l) => l.textContent || '').join(' ').trim()
      || (el.tagName === 'BUTTON' ? (el.textContent || '').trim() : '')
      || (el.getAttribute('title') || '').trim();
  };
  for (const el of document.querySelectorAll('input, select, textarea, button, meter')) {
    if (el.type === 'hidden') continue;
    checked++;
    if (!name(el)) out.push(el.outerHTML.slice(0, 120));
  }
  for (const img of document.querySelectorAll('img, [role=img]')) {
    if (img.tagName === 'IMG' ? !img.hasAttribute('alt') : !name(img)) out.push(img.outerHTML.slice(0, 120));
  }
  return { checked, found: out };
})()`;

/** What a probe looked at (so a test can tell it saw the page) and what it found wrong. */
export interface Probe { checked: number; found: string[] }

export async function unnamed(page: Page): Promise<Probe> {
  return page.evaluate(UNNAMED) as Promise<Probe>;
}

/**
 * Every visible element with its own text whose colour's WCAG 2.1 contrast
 * against its effective background (the first opaque background up the tree,
 * translucent ones composited over it) is below 4.5, or 3 for large text
 * (24px, or 18.66px bold). Disabled controls are exempt, as WCAG says.
 */
const LOW_CONTRAST = `(() => {
  const parse = (c) => { const m = c.match(/[\\d.]+/g) || ['0', '0', '0', '0']; return [+m[0], +m[1], +m[2], m[3] === undefined ? 1 : +m[3]]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let base = [255, 255, 255, 1];
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const out = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.closest('[disabled], script, style, noscript, option')) continue;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || s.visibility === 'hidden' || r.right < 0 || r.bottom < 0) continue;
    if (el.closest('.visually-hidden')) continue;
    checked++;
    const bg = background(el);
    const fg = over(parse(s.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && +s.fontWeight >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(el.tagName.toLowerCase() + '.' + el.className + ' "' + el.textContent.trim().slice(0, 40) + '" ' + s.color + ' on rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ') = ' + ratio.toFixed(2));
  }
  return { checked, found: out };
})()`;

export async function lowContrast(page: Page): Promise<Probe> {
  return page.evaluate(LOW_CONTRAST) as Promise<Probe>;
}
