// The console's entry: sign-in with a platform-admin token (kept in
// sessionStorage only: gone when the tab closes), then the pages behind a
// hash router (#/tenants, #/tenants/<name>, #/members, #/placement), fed by
// the live stream.
import type { ConsoleState } from '../../src/console/view/console-types.ts';
import { applyDelta } from '../../src/console/view/state-delta.ts';
import { ApiFailure, call, token, whenUnauthorized } from './api.ts';
import { h, replaceChildren } from './dom.ts';
import { followLive } from './live.ts';
import type { Page, PageContext } from './page.ts';
import { tenantsPage } from './tenants-page.ts';
import { tenantDetailPage } from './tenant-detail-page.ts';
import { membersPage } from './members-page.ts';
import { placementPage } from './placement-page.ts';

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;
const live = document.getElementById('live') as HTMLElement;
const notice = document.getElementById('notice') as HTMLElement;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;

let state: ConsoleState | undefined;
let page: Page | undefined;
let stopLive: (() => void) | undefined;
let noticeTimer: number | undefined;

const ctx: PageContext = {
  state: () => state,
  notify(text, tone = 'ok') {
    notice.textContent = text;
    notice.className = `notice show ${tone}`;
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(() => { notice.className = 'notice'; }, 8000);
  },
};

function route(): void {
  if (!token.get()) return;
  page?.leave?.();
  const hash = location.hash.startsWith('#/') ? location.hash.slice(2) : 'tenants';
  const [section = 'tenants', name] = hash.split('/');
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === `#/${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (section === 'tenants' && name) page = tenantDetailPage(main, ctx, decodeURIComponent(name));
  else if (section === 'members') page = membersPage(main, ctx);
  else if (section === 'placement') page = placementPage(main, ctx);
  else page = tenantsPage(main, ctx);
  if (state) page.update(state);
  document.title = `${main.querySelector('h1')?.textContent ?? 'Console'} · Warren`;
}

function start(): void {
  nav.hidden = false;
  signOut.hidden = false;
  route();
  stopLive = followLive({
    state(data) {
      state = data;
      page?.update(state);
    },
    delta(data) {
      if (!state) return;
      state = applyDelta(state, data);
      page?.update(state);
    },
    expired() {
      token.clear();
      showSignIn('Your session ended: the token expired. Sign in again with a new one.');
    },
    status(text, isLive) {
      live.textContent = text;
      live.className = isLive ? 'live on' : 'live off';
    },
  });
}

function showSignIn(message = ''): void {
  stopLive?.();
  stopLive = undefined;
  state = undefined;
  page = undefined;
  nav.hidden = true;
  signOut.hidden = true;
  live.textContent = '';
  const input = h('textarea', { id: 'token', name: 'token', rows: 4, required: true, autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'token-help' });
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' }, message);
  const form = h('form', { class: 'sign-in' },
    h('h1', {}, 'Sign in'),
    h('label', { for: 'token' }, 'Platform-admin token'),
    input,
    h('p', { id: 'token-help', class: 'help' }, 'Print one with ', h('code', {}, 'warren admin token'), '. It is kept in this tab only and sent with each request.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    call('/console/api/state', {}, value)
      .then(() => {
        token.set(value);
        start();
      })
      .catch((err: unknown) => {
        error.textContent = err instanceof ApiFailure && err.code === 403
          ? 'This credential belongs to a tenant: the console is for platform admins.'
          : err instanceof ApiFailure && err.code === 401 ? 'That token is not a valid platform-admin token (expired?).' : `Cannot sign in: ${(err as Error).message}`;
      });
  });
  replaceChildren(main, form);
  document.title = 'Sign in · Warren';
  input.focus();
}

signOut.addEventListener('click', () => {
  token.clear();
  showSignIn();
});
whenUnauthorized(() => {
  token.clear();
  showSignIn('Your session ended (the token expired or was refused). Sign in again.');
});
window.addEventListener('hashchange', () => {
  // The skip link (#main) moves focus only; pages are #/...
  if (location.hash && !location.hash.startsWith('#/')) return;
  route();
  main.focus();
});

if (token.get()) start();
else showSignIn();
