// The TypeScript side of running tests: the preload every test process takes
// (bin/ts-register.mjs) and the compile-once step before a run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompile } from '../bin/ts-compile.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `node --import TS_REGISTER file.ts` runs a TypeScript file from the compiled cache. */
export const TS_REGISTER = join(ROOT, 'bin', 'ts-register.mjs');

function tsFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/**
 * Compiles every .ts file under src/ and test/ that the cache lacks, before any test
 * starts: once, in one process, instead of in each of the run's first test processes.
 */
export async function compileOnce() {
  const began = Date.now();
  const files = ['src', 'test'].flatMap((dir) => tsFiles(join(ROOT, dir)));
  const made = await precompile(files);
  console.log(`TypeScript: ${files.length} files, ${made} compiled now, the rest from the cache (${((Date.now() - began) / 1000).toFixed(1)} s)`);
}
