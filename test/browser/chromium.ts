// Finds headless Chromium for the browser tier: $WARREN_CHROMIUM (or
// $PUPPETEER_EXECUTABLE_PATH), else Debian's /usr/bin/chromium. Nothing is
// downloaded. Without one, CI fails loudly with how to install it; a laptop
// run skips with the same words.
import { existsSync } from 'node:fs';

export const INSTALL_HINT = 'the browser tier needs Chromium: `apt-get install -y chromium` (Debian/Ubuntu), or set WARREN_CHROMIUM to a Chromium or Chrome executable';

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.WARREN_CHROMIUM, env.PUPPETEER_EXECUTABLE_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));
}

/** The executable, or a reason to skip; in CI (CI=true) a missing browser throws instead. */
export function requireChromium(env: NodeJS.ProcessEnv = process.env): { path?: string; skip?: string } {
  const path = chromiumPath(env);
  if (path) return { path };
  if (env.CI === 'true') throw new Error(`no Chromium found in CI: ${INSTALL_HINT}`);
  return { skip: `no Chromium found: ${INSTALL_HINT}` };
}
