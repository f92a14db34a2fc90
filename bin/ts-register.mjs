// `node --import ./bin/ts-register.mjs file.ts`: runs Warren's TypeScript through its compiled
// cache (bin/ts-compile.mjs). bin/warren imports it; the test runner preloads it into every
// test file, and test helpers into the processes they start.
import { register } from 'node:module';

// Stack traces in .ts lines, from the inline source maps.
process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
