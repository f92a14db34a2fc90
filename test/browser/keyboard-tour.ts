// The console by keyboard alone (page.keyboard: Tab, Shift+Tab, Enter, Space,
// Escape, arrows, typing): every action of the tenants page and every page,
// with a visible focus at every Tab stop (tabTo fails otherwise), and on each
// page every control named and every text readable (WCAG AA contrast).
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { eventually } from '../helpers/poll.ts';
import { focused, lowContrast, tabTo, unnamed } from './a11y-probes.ts';

declare const document: { querySelector(s: string): { textContent: string | null; getAttribute(n: string): string | null; hasAttribute(n: string): boolean } | null; activeElement: { matches(s: string): boolean } | null };
type HTMLSelectElement = { value: string };

export interface TourOptions {
  page: Page;
  gateway: string;
  /** `kubectl get tenant <name>` on the host: true while it exists. */
  tenantExists(name: string): Promise<boolean>;
}

/** No unnamed control, no img without alt, no low-contrast text on what the page shows now. */
export async function checkLabelsAndContrast(page: Page, where: string): Promise<void> {
  const names = await unnamed(page);
  assert.ok(names.checked > 0, `${where}: no control seen`);
  assert.deepEqual(names.found, [], `${where}: controls without an accessible name`);
  const contrast = await lowContrast(page);
  assert.ok(contrast.checked >= 5, `${where}: only ${String(contrast.checked)} text elements seen`);
  assert.deepEqual(contrast.found, [], `${where}: text below WCAG AA contrast`);
}

/** The probes see a fault: #767676 on white is 4.54 (passes), #777777 is 4.48 (fails); a button with no name fails. */
const PLANT = `(() => {
  const box = document.createElement('div');
  box.id = 'probe-plant';
  // Through the CSSOM: the console's CSP (style-src 'self') blocks style attributes in markup.
  for (const [colour, text] of [['#767676', 'just readable'], ['#777777', 'too faint']]) {
    const p = document.createElement('p');
    p.style.color = colour;
    p.textContent = text;
    box.appendChild(p);
  }
  const button = document.createElement('button');
  button.type = 'button';
  box.appendChild(button);
  document.body.appendChild(box);
})()`;

async function probesCanFail(page: Page): Promise<void> {
  await page.evaluate(PLANT);
  try {
    const contrast = (await lowContrast(page)).found.join('\n');
    assert.match(contrast, /too faint/);
    assert.doesNotMatch(contrast, /just readable/);
    assert.match((await unnamed(page)).found.join('\n'), /<button type="button"><\/button>/);
  } finally {
    await page.evaluate("document.getElementById('probe-plant').remove()");
  }
}

async function isFocused(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
}

async function press(page: Page, key: 'Enter' | 'Space' | 'Escape'): Promise<void> {
  await page.keyboard.press(key === 'Space' ? ' ' : key);
}

async function filterAndSort(page: Page): Promise<void> {
  await tabTo(page, '#tenant-filter');
  await page.keyboard.type('acme');
  await page.waitForFunction(() => !document.querySelector('[data-tenant="globex"]') && !!document.querySelector('[data-tenant="acme"]'));
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.waitForSelector('[data-tenant="globex"]');
  const nameSort = 'thead th:first-child button.sort';
  await tabTo(page, nameSort);
  await press(page, 'Enter');
  await page.waitForFunction(() => document.querySelector('thead th:first-child')?.getAttribute('aria-sort') === 'descending');
  assert.ok(await isFocused(page, nameSort), 'the sort button keeps the focus after sorting');
  await press(page, 'Space');
  await page.waitForFunction(() => document.querySelector('thead th:first-child')?.getAttribute('aria-sort') === 'ascending');
}

async function create(page: Page, name: string): Promise<void> {
  await tabTo(page, 'details.create-panel summary', { back: true });
  await press(page, 'Enter');
  await page.waitForSelector('details.create-panel[open] #new-name');
  await tabTo(page, '#new-name');
  await page.keyboard.type(name);
  await tabTo(page, '#new-namespaces');
  await page.keyboard.type('3');
  await tabTo(page, 'input[name=member][value=member1]');
  await press(page, 'Space');
  await page.waitForSelector('input[name=member][value=member1]:checked');
  await tabTo(page, 'form.create button[type=submit]');
  await press(page, 'Enter');
  await page.waitForFunction((n) => (document.querySelector('.form-status')?.textContent ?? '').includes(`Tenant ${n} is Ready`), { timeout: 120_000 }, name);
  await page.waitForSelector(`[data-tenant="${name}"][data-phase="Ready"]`);
}

async function suspendResumeRevoke(page: Page, name: string): Promise<void> {
  await tabTo(page, `button[aria-label="Suspend ${name}"]`);
  await press(page, 'Enter');
  await page.waitForSelector(`[data-tenant="${name}"][data-phase="Suspended"]`, { timeout: 60_000 });
  // The button changed its name (Suspend → Resume) in the redraw: the focus stays on it.
  await page.waitForFunction((n) => document.activeElement?.matches(`button[aria-label="Resume ${n}"]`) ?? false, {}, name);
  await press(page, 'Space');
  await page.waitForSelector(`[data-tenant="${name}"][data-phase="Ready"]`, { timeout: 60_000 });
  await tabTo(page, `button[aria-label="Revoke credentials of ${name}"]`);
  await press(page, 'Enter');
  await page.waitForFunction((n) => (document.querySelector('#notice')?.textContent ?? '').includes(`Tenant ${n}: credentials revoked`), {}, name);
}

async function kubeconfig(page: Page): Promise<void> {
  const button = 'button[aria-label="Download kubeconfig of acme"]';
  await tabTo(page, button, { back: true });
  await press(page, 'Enter');
  await page.waitForSelector('dialog.confirm[open] #kubeconfig-user');
  assert.ok(await isFocused(page, '#kubeconfig-user'), 'the dialog focuses its first control');
  await checkLabelsAndContrast(page, 'the kubeconfig dialog');
  await press(page, 'Escape');
  await page.waitForFunction(() => !document.querySelector('dialog.confirm'));
  assert.ok(await isFocused(page, button), 'Escape closes the dialog and gives the focus back');
  await press(page, 'Enter');
  await page.waitForSelector('dialog.confirm[open] #kubeconfig-user');
  await page.keyboard.press('ArrowDown');
  const user = await page.$eval('#kubeconfig-user', (s) => (s as unknown as HTMLSelectElement).value);
  assert.equal(user, 'bob', 'the arrow key picks the next user');
  await tabTo(page, 'dialog.confirm button.primary');
  await press(page, 'Enter');
  await page.waitForFunction(() => /Downloaded acme-bob\.kubeconfig/.test(document.querySelector('#notice')?.textContent ?? ''));
}

async function remove(page: Page, name: string, exists: (n: string) => Promise<boolean>): Promise<void> {
  const button = `button[aria-label="Delete ${name}"]`;
  await tabTo(page, button);
  await press(page, 'Enter');
  await page.waitForSelector('dialog.confirm[open] #confirm-name');
  assert.ok(await isFocused(page, '#confirm-name'));
  await checkLabelsAndContrast(page, 'the delete confirmation');
  await press(page, 'Escape');
  await page.waitForFunction(() => !document.querySelector('dialog.confirm'));
  assert.ok(await isFocused(page, button), 'Escape cancels the delete and gives the focus back');
  assert.ok(await exists(name), 'Escape deleted nothing');
  await press(page, 'Enter');
  await page.waitForSelector('dialog.confirm[open] #confirm-name');
  await page.keyboard.type(name);
  await tabTo(page, 'dialog.confirm button.danger');
  await press(page, 'Enter');
  await eventually(async () => !(await exists(name)), `${name} deleted`, { timeoutMs: 90_000 });
}

async function pages(page: Page): Promise<void> {
  await tabTo(page, 'nav a[href="#/members"]', { back: true });
  await press(page, 'Enter');
  await page.waitForSelector('[data-member="member1"]');
  assert.equal(await page.$eval('nav a[href="#/members"]', (a) => a.getAttribute('aria-current')), 'page');
  await checkLabelsAndContrast(page, 'members');
  await tabTo(page, 'nav a[href="#/placement"]', { back: true });
  await press(page, 'Enter');
  await page.waitForSelector('table.map');
  await tabTo(page, '[data-cell="acme/member1"] button');
  await press(page, 'Enter');
  await page.waitForSelector('#cell-detail [data-workload="default/web"]');
  await checkLabelsAndContrast(page, 'placement');
  await tabTo(page, 'tbody th a[href="#/tenants/acme"]', { back: true });
  await press(page, 'Enter');
  await page.waitForFunction(() => /Conditions/.test(document.querySelector('main')?.textContent ?? ''));
  await checkLabelsAndContrast(page, 'tenant detail');
  await tabTo(page, 'nav a[href="#/tenants"]', { back: true });
  await press(page, 'Enter');
  await page.waitForSelector('[data-tenant="acme"]');
}

/** The tour: starts on a fresh load of the tenants page, signed in; creates and deletes `name`. */
export async function keyboardTour(options: TourOptions, name: string): Promise<void> {
  const { page, gateway } = options;
  // A real load (a hash-only goto keeps the old focus); the token stays in this tab's sessionStorage.
  await page.goto('about:blank');
  await page.goto(`${gateway}/console/#/tenants`);
  await page.waitForSelector('[data-tenant="acme"]');
  const first = (await tabTo(page, 'a.skip-link')).length;
  assert.equal(first, 1, 'the skip link is the first Tab stop');
  await press(page, 'Enter');
  assert.ok(await isFocused(page, 'main'), 'the skip link leads to the content');
  await probesCanFail(page);
  await checkLabelsAndContrast(page, 'tenants');
  await filterAndSort(page);
  await create(page, name);
  await checkLabelsAndContrast(page, 'tenants with the create form open');
  await suspendResumeRevoke(page, name);
  await kubeconfig(page);
  await remove(page, name, options.tenantExists);
  await pages(page);
  assert.notEqual((await focused(page)).what, 'body', 'the focus is somewhere after the tour');
}
