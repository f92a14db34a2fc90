// How a test starts a TypeScript file as a process of its own: with the loader bin/warren
// uses (bin/ts-register.mjs), which serves the files compiled once per run, rather than
// tsx, whose start and imports cost a child about twice the CPU.
import { fileURLToPath } from 'node:url';

const TS_REGISTER = fileURLToPath(new URL('../../bin/ts-register.mjs', import.meta.url));

/** Node arguments that go before a .ts script. */
export const tsLoaderArgs = (): string[] => ['--import', TS_REGISTER];
