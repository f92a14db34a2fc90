// How a test starts a long-running child that dies with the test process:
// preload exit-with-parent.mjs (why: see there), give the child a stdin pipe,
// and set WARREN_EXIT_WITH_PARENT=1.
import type { SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The preload's path, for `node --import`. */
export const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));

/** Node arguments that go before the script. */
export const exitWithParentArgs = (): string[] => ['--import', EXIT_WITH_PARENT];

/** Spawn options: stdin a pipe the child watches, stdout and stderr piped, the flag in the environment. */
export function exitWithParentSpawn(options: SpawnOptions = {}): SpawnOptions {
  return { ...options, stdio: ['pipe', 'pipe', 'pipe'], env: { ...(options.env ?? process.env), WARREN_EXIT_WITH_PARENT: '1' } };
}
