// The web console in headless Chromium against a running `warren up`: sign-in
// with the platform-admin token, a tenant created in the console becomes Ready
// and shows in `kubectl get tenants`, a template a tenant applies appears in
// the placement map, a stopped member turns red, a tenant credential gets 403
// (certificate and token, on the page and its API), the admin picks whose
// kubeconfig to download, an expired token ends the live stream and the page
// asks for sign-in, and a delete needs the name typed out. Screenshots of each
// page go to docs/console/ only on request (WARREN_SCREENSHOTS=1, as
// `npm run screenshots` sets it): a plain test run leaves the tree clean.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { eventually } from '../helpers/poll.ts';
import { kubectl } from '../helpers/kubectl.ts';
import { requireChromium } from './chromium.ts';
import { gatewayGet, kubeconfigParts } from '../helpers/gateway-https.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import { loadGatewaySecrets } from '../../src/tenants/platform-secrets.ts';
import { mintPlatformAdminToken } from '../../src/gateway/portal/platform-admin.ts';
import { SCREENSHOTS, startConsoleEnv, type ConsoleEnv } from './console-env.ts';
import { checkLabelsAndContrast, keyboardTour } from './keyboard-tour.ts';

// What the functions run inside the page see (the project compiles without the DOM library).
declare const document: { getElementById(id: string): { textContent: string | null } | null; querySelector(s: string): { textContent: string | null; getAttribute(n: string): string | null } | null; body: { innerText: string }; documentElement: { scrollWidth: number } };
declare const sessionStorage: { getItem(key: string): string | null };
declare const localStorage: { length: number };
declare const window: { innerWidth: number };
declare function getComputedStyle(el: unknown): { backgroundColor: string };
type HTMLTextAreaElement = { value: string };
type HTMLButtonElement = { disabled: boolean; click(): void };

const browser = requireChromium();
const KUBECTL = '1.32';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 4
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx:1.27 }] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: web, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: apps/v1, kind: Deployment, name: web }]
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
    replicaScheduling: { replicaSchedulingType: Divided, replicaDivisionPreference: Weighted }
`;

// A string, not a function: tsx names inner functions with an `__name` helper the page does not have.
const SPREAD_OVER_BOTH = `(() => {
  const n = (m) => Number(document.querySelector('[data-cell="acme/' + m + '"]')?.getAttribute('data-replicas') ?? 0);
  return n('member1') + n('member2') === 4 && n('member1') > 0 && n('member2') > 0;
})()`;

/** Writes docs/console/<name>.png only when asked: the committed images stay as they are otherwise. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.WARREN_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/** On a timeout, says what the page showed: the live indicator, the cells, the page's own errors. */
async function diagnose<T>(page: Page, errors: string[], step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    const seen = await page.evaluate(() => `live: ${document.getElementById('live')?.textContent ?? ''}; ${document.body.innerText.slice(0, 1500)}`).catch(() => '');
    throw new Error(`${String(err)}\npage: ${seen}\npage errors: ${errors.join(' | ')}`);
  }
}

async function attr(page: Page, selector: string, name: string): Promise<string | null> {
  return page.$eval(selector, (el, n) => el.getAttribute(n), name).catch(() => null);
}

describe('the web console in Chromium', { skip: browser.skip, timeout: 300_000 }, () => {
  let env: ConsoleEnv;
  let page: Page;
  let gateway = '';
  const acmeKubeconfig = (): string => join(env.dataDir, 'tenants', 'acme.kubeconfig');

  /** Signs in with `token` in a tab of its own (a fresh session), then runs `check` there. */
  async function inFreshTab(token: string, check: (p: Page) => Promise<void>): Promise<void> {
    const other = await env.browser.createBrowserContext();
    try {
      const p = await other.newPage();
      await p.goto(`${gateway}/console/`);
      await p.waitForSelector('#token');
      await p.type('#token', token);
      await p.click('form.sign-in button[type=submit]');
      await check(p);
    } finally {
      await other.close();
    }
  }

  before(async () => {
    env = await startConsoleEnv(browser.path ?? '');
    page = env.page;
    gateway = env.up.gatewayUrl;
  });
  after(async () => {
    await env?.stop();
  });

  it('signs in with the platform-admin token and lists the tenants', async () => {
    await page.goto(`${gateway}/console/`);
    await page.waitForSelector('#token');
    await checkLabelsAndContrast(page, 'sign-in');
    // A wrong token is refused and keeps the form.
    await page.type('#token', 'not-a-token');
    await page.click('form.sign-in button[type=submit]');
    await page.waitForFunction(() => /not a valid platform-admin token/.test(document.getElementById('sign-in-error')?.textContent ?? ''));
    await page.$eval('#token', (el) => { (el as HTMLTextAreaElement).value = ''; });
    await page.type('#token', env.adminToken);
    await page.click('form.sign-in button[type=submit]');
    await page.waitForSelector('[data-tenant="acme"][data-phase="Ready"]');
    await page.waitForSelector('[data-tenant="globex"][data-phase="Ready"]');
    const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('warren.console.token'), local: localStorage.length }));
    assert.equal(stored.session, env.adminToken, 'the token lives in sessionStorage');
    assert.equal(stored.local, 0, 'nothing in localStorage');
    const acmeRow = await page.$eval('[data-tenant="acme"]', (el) => el.textContent ?? '');
    assert.match(acmeRow, /alice \(admin\)/);
    assert.match(acmeRow, /member1/);
    assert.match(acmeRow, /namespaces \d+ \/ 20/, 'usage against quota, as a bar');
    await shot(page, 'tenants');
  });

  it('creates a tenant that becomes Ready and shows in kubectl get tenants', async () => {
    await page.click('details.create-panel summary');
    await page.type('#new-name', 'initech');
    await page.type('#new-display', 'Initech');
    await page.type('#new-namespaces', '5');
    await page.click('input[name=member][value=member1]');
    await page.click('form.create button[type=submit]');
    await page.waitForFunction(() => /Tenant initech is Ready/.test(document.querySelector('.form-status')?.textContent ?? ''), { timeout: 90_000 });
    await page.waitForSelector('[data-tenant="initech"][data-phase="Ready"]');
    const out = await eventually(async () => {
      const r = await env.host(['get', 'tenants']);
      return r.code === 0 && /initech\s/.test(r.stdout) ? r.stdout : undefined;
    }, 'initech in kubectl get tenants');
    assert.match(out, /initech\s+\S+\s+Ready/, out);
    // The console never showed the kubeconfig the provisioning API answered with.
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /client-key-data|BEGIN/);
  });

  it('shows a template a tenant applies in the placement map, live, and lists it on a click', async () => {
    await page.goto(`${gateway}/console/#/placement`);
    await page.waitForSelector('table.map');
    const r = await kubectl(KUBECTL, ['apply', '-f', '-'], { kubeconfigPath: acmeKubeconfig(), input: WEB });
    assert.equal(r.code, 0, r.stderr);
    // Live: the page is not reloaded; the cells fill in from the watch-driven stream.
    await diagnose(page, env.pageErrors, page.waitForFunction(SPREAD_OVER_BOTH, { timeout: 60_000 }));
    assert.equal(await attr(page, '[data-cell="globex/member1"]', 'data-replicas'), '0', 'nothing of acme in globex\'s row');
    // Clicked inside the page in one step: a live redraw between finding the button and clicking it would detach it.
    await page.$eval('[data-cell="acme/member1"] button', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('#cell-detail [data-workload="default/web"]');
    const listed = await page.$eval('#cell-detail', (el) => el.textContent ?? '');
    assert.match(listed, /Deployment/);
    assert.doesNotMatch(listed, /[a-z][a-z0-9]{5}-default/, 'names in the tenant\'s terms, no upstream prefix');
    await diagnose(page, env.pageErrors, page.waitForFunction(() => /2 \/ 2/.test(document.querySelector('[data-cell="acme/member1"]')?.textContent ?? ''), { timeout: 60_000 }));
    await shot(page, 'placement');
  });

  it('shows a tenant\'s detail: conditions, namespaces, quota, its bindings and events', async () => {
    await page.goto(`${gateway}/console/#/tenants/acme`);
    await page.waitForFunction(() => /Deployment\/web/.test(document.body.innerText) && /Ready/.test(document.body.innerText));
    const text = await page.evaluate(() => document.body.innerText);
    assert.match(text, /Conditions/);
    assert.match(text, /member1: 2/);
    assert.match(text, /Namespaces[\s\S]*default/);
    // Events from the tenant's own namespaces (the engine's, on its binding), not only the Tenant's.
    assert.match(text, /Events[\s\S]*ResourceBinding\/web-deployment\s+default/);
    assert.match(text, /Events[\s\S]*Tenant\/acme/);
    await shot(page, 'tenant-detail');
  });

  it('turns a stopped member red on the members page and the map', async () => {
    await page.goto(`${gateway}/console/#/members`);
    await page.waitForSelector('[data-member="member2"][data-health="Ready"]', { timeout: 120_000 });
    const row = await page.$eval('[data-member="member1"]', (el) => el.textContent ?? '');
    assert.match(row, /acme/, 'the tenants using member1');
    await shot(page, 'members');
    await env.up.memberServers.member2!.stop();
    await page.waitForSelector('[data-member="member2"][data-health="NotReady"]', { timeout: 120_000 });
    assert.equal(await attr(page, '[data-member="member2"]', 'class'), 'row-bad');
    const colour = await page.$eval('[data-member="member2"] td', (el) => getComputedStyle(el).backgroundColor);
    assert.equal(colour, 'rgb(253, 227, 227)', 'the row is red');
    await shot(page, 'members-down');
    await page.goto(`${gateway}/console/#/placement`);
    await page.waitForSelector('[data-member-column="member2"][data-health="NotReady"]', { timeout: 60_000 });
  });

  it('gives a tenant credential 403 on the console and its API, and 401 to a bad one', async () => {
    const acme = kubeconfigParts(acmeKubeconfig());
    for (const path of ['/console/', '/console/app.js', '/console/api/state', '/console/api/live', '/console/api/tenants/globex']) {
      const r = await gatewayGet(`${gateway}${path}`, acme);
      assert.equal(r.status, 403, `${path} with acme's certificate: ${r.body}`);
      assert.equal(JSON.parse(r.body).reason, 'Forbidden');
    }
    const as = async (...args: string[]): Promise<string> => {
      const r = await kubectl(KUBECTL, args, { kubeconfigPath: acmeKubeconfig() });
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    await as('create', 'namespace', 'bots');
    await as('create', 'serviceaccount', 'bot', '-n', 'bots');
    const token = (await as('create', 'token', 'bot', '-n', 'bots')).trim();
    const withToken = await gatewayGet(`${gateway}/console/api/state`, { ca: acme.ca, token });
    assert.equal(withToken.status, 403, withToken.body);
    const forged = await gatewayGet(`${gateway}/console/api/state`, { ca: acme.ca, token: `${env.adminToken.slice(0, -4)}AAAA` });
    assert.equal(forged.status, 401, 'a tampered admin token');
    const none = await gatewayGet(`${gateway}/console/api/state`, { ca: acme.ca });
    assert.equal(none.status, 401, 'no credential');
    // In the browser: the tenant's token is refused at sign-in, in words.
    await inFreshTab(token, async (p) => {
      await p.waitForFunction(() => /belongs to a tenant/.test(document.getElementById('sign-in-error')?.textContent ?? ''));
      assert.equal(await p.evaluate(() => sessionStorage.getItem('warren.console.token')), null);
    });
  });

  it('downloads a kubeconfig only on request, as YAML with a file name; the state carries no credential', async () => {
    const result = await page.evaluate(async () => {
      const auth = { Authorization: `Bearer ${sessionStorage.getItem('warren.console.token') ?? ''}` };
      const state = await (await fetch('/console/api/state', { headers: auth })).text();
      const get = await fetch('/console/api/tenants/acme/kubeconfig', { headers: auth });
      const post = await fetch('/console/api/tenants/acme/kubeconfig', { method: 'POST', headers: { ...auth, 'X-Warren-Console': '1' } });
      return { state, get: get.status, status: post.status, type: post.headers.get('content-type'), disposition: post.headers.get('content-disposition'), cache: post.headers.get('cache-control'), body: await post.text() };
    });
    assert.doesNotMatch(result.state, /client-key-data|certificate-authority-data|BEGIN|kubeconfigSecretRef/);
    assert.equal(result.get, 405, 'a GET never downloads');
    assert.equal(result.status, 200);
    assert.equal(result.type, 'application/yaml; charset=utf-8');
    assert.equal(result.disposition, 'attachment; filename="acme-alice.kubeconfig"');
    assert.equal(result.cache, 'no-store');
    assert.match(result.body, /client-key-data/);
  });

  it('lets the admin pick whose kubeconfig to download', async () => {
    await page.goto(`${gateway}/console/#/tenants`);
    await page.waitForSelector('[data-tenant="acme"]');
    await page.$eval('button[aria-label="Download kubeconfig of acme"]', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('dialog.confirm[open] #kubeconfig-user');
    const options = await page.$$eval('#kubeconfig-user option', (os) => os.map((o) => [o.getAttribute('value'), o.textContent]));
    assert.deepEqual(options, [['alice', 'alice (admin)'], ['bob', 'bob']], 'the first admin first, and chosen');
    await page.select('#kubeconfig-user', 'bob');
    await page.click('dialog.confirm button.primary');
    await page.waitForFunction(() => /Downloaded acme-bob\.kubeconfig: it lets its holder act as bob in acme/.test(document.getElementById('notice')?.textContent ?? ''));
  });

  it('ends the live stream when the token expires, and the page asks to sign in again', async () => {
    const upstream = createUpstream({ path: env.up.adminKubeconfigPath });
    // Long enough to sign in on a loaded machine, short enough to wait for.
    const short = await mintPlatformAdminToken((await loadGatewaySecrets(upstream)).signingKeys, 'short-lived', 20);
    await inFreshTab(short, async (p) => {
      await p.waitForSelector('[data-tenant="acme"]');
      await p.waitForFunction(() => /Live/.test(document.getElementById('live')?.textContent ?? ''));
      // The server's `expired` event, not a failed reconnect: the page says the token expired.
      await p.waitForFunction(() => /session ended: the token expired/.test(document.getElementById('sign-in-error')?.textContent ?? ''), { timeout: 90_000 });
      assert.equal(await p.evaluate(() => sessionStorage.getItem('warren.console.token')), null, 'the expired token is gone');
    });
  });

  it('suspends and resumes a tenant, and deletes one only after its name is typed', async () => {
    await page.goto(`${gateway}/console/#/tenants`);
    await page.waitForSelector('[data-tenant="initech"]');
    await page.$eval('button[aria-label="Suspend initech"]', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('[data-tenant="initech"][data-phase="Suspended"]', { timeout: 60_000 });
    await page.$eval('button[aria-label="Resume initech"]', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('[data-tenant="initech"][data-phase="Ready"]', { timeout: 60_000 });
    await page.$eval('button[aria-label="Delete initech"]', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('dialog.confirm[open]');
    assert.equal(await page.$eval('dialog.confirm button.danger', (b) => (b as HTMLButtonElement).disabled), true, 'disabled until the name is typed');
    await page.type('#confirm-name', 'initec');
    assert.equal(await page.$eval('dialog.confirm button.danger', (b) => (b as HTMLButtonElement).disabled), true);
    await page.type('#confirm-name', 'h');
    await page.click('dialog.confirm button.danger');
    await eventually(async () => {
      const r = await env.host(['get', 'tenant', 'initech']);
      return r.code !== 0 && /NotFound|not found/.test(r.stderr);
    }, 'initech gone', { timeoutMs: 90_000 });
    await page.waitForFunction(() => !document.querySelector('[data-tenant="initech"]'), { timeout: 30_000 });
  });

  it('reaches every page and every action of the tenants page by keyboard alone, all named and readable', async () => {
    const tenantExists = async (name: string): Promise<boolean> => {
      const r = await env.host(['get', 'tenant', name]);
      if (r.code === 0) return true;
      assert.match(r.stderr, /NotFound|not found/, r.stderr);
      return false;
    };
    await diagnose(page, env.pageErrors, keyboardTour({ page, gateway, tenantExists }, 'hooli'));
  });

  it('is usable at a phone\'s width', async () => {
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`${gateway}/console/#/tenants`);
    await page.waitForSelector('[data-tenant="acme"]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px (only tables may)`);
    await shot(page, 'tenants-phone');
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('raised no script error in the page', () => {
    assert.deepEqual(env.pageErrors, []);
  });
});
