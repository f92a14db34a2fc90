// A running `warren up` system (in this process: the test stops one member
// to see it turn red) plus headless Chromium on the console. Everything is
// reached over HTTPS on loopback; the platform-admin token comes from the
// real CLI (`warren admin token`), the tenants' credentials from their kubeconfigs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startUp, type RunningUp } from '../../src/up/start-up.ts';
import { freePortBase, kubectlAs, TENANTS_DIR, warren } from '../fixtures/up/warren-up-process.ts';

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'console');

export interface ConsoleEnv {
  up: RunningUp;
  dataDir: string;
  adminToken: string;
  browser: Browser;
  page: Page;
  /** Uncaught errors and console errors of the page, in order. */
  pageErrors: string[];
  host: ReturnType<typeof kubectlAs>;
  tenant(name: string): ReturnType<typeof kubectlAs>;
  stop(): Promise<void>;
}

export async function startConsoleEnv(chromium: string): Promise<ConsoleEnv> {
  const root = mkdtempSync(join(tmpdir(), 'warren-console-'));
  const dataDir = join(root, 'data');
  let up: RunningUp | undefined;
  let browser: Browser | undefined;
  try {
    up = await startUp({
      dataDir, portBase: await freePortBase(2), members: 2, tenantsDir: TENANTS_DIR, log: () => undefined, progress: () => undefined,
      // Probed often, declared down after a few seconds: "a stopped member turns red" needs no long
      // wait, and a member merely slow on a loaded machine (CI's 2 cores) does not flap.
      tuning: { clusterProbeIntervalMs: 500, clusterFailureThresholdMs: 4000 },
    });
    const token = await warren(['admin', 'token', '--data-dir', dataDir, '--ttl', '3600'], 180_000);
    if (token.code !== 0) throw new Error(`warren admin token failed (${String(token.code)}): ${token.stderr}`);
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      // The gateway's serving CA is made by `up`; the browser is told to accept it rather than trust it system-wide.
      acceptInsecureCerts: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    const page = await browser.newPage();
    // Script errors in the page fail the run (checked in the test's after): a broken redraw is silent otherwise.
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    // A refused request is logged by the browser itself (the tests make some on purpose); not a script error.
    page.on('console', (msg) => { if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) pageErrors.push(msg.text()); });
    await page.setViewport({ width: 1280, height: 900 });
    const running = up;
    const opened = browser;
    return {
      up: running, dataDir, adminToken: token.stdout.trim(), browser: opened, page, pageErrors,
      host: kubectlAs(running.adminKubeconfigPath),
      tenant: (name) => kubectlAs(join(dataDir, 'tenants', `${name}.kubeconfig`)),
      async stop() {
        await opened.close().catch(() => undefined);
        await running.stop();
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await up?.stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}
