// Warren's TypeScript, compiled to JavaScript once and kept on disk: what bin/warren and the
// test runner load instead of going through tsx, whose per-process start (~0.5 s of CPU) and
// per-import resolution (~2.6 s of CPU for the apiserver's ~300 modules) every test file paid
// twice. See docs/adr/0034-compiled-once-per-run.md.
//
// The output is esbuild's transform of one file, as tsx makes it (esbuild comes with tsx, a
// runtime dependency), with an inline source map so stack traces name the .ts lines. A cache
// entry's name is a hash of everything the output depends on (the file's path and text,
// tsconfig.json, esbuild's version), so an edited file can never be served stale and two
// checkouts can share the cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// esbuild as tsx resolves it, wherever npm placed it.
const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx'));
const ESBUILD_VERSION = JSON.parse(readFileSync(fromTsx.resolve('esbuild/package.json'), 'utf8')).version;
const TSCONFIG = readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8');
// Bump when the transform's options below change.
const FORMAT = 'warren-ts-1';

/** Where compiled files are kept: WARREN_TS_CACHE, else a directory per user under the temp dir. */
export const CACHE_DIR = process.env.WARREN_TS_CACHE ?? join(tmpdir(), `warren-ts-${process.getuid?.() ?? 'user'}`);

let esbuild;
const loadEsbuild = () => (esbuild ??= import(pathToFileURL(fromTsx.resolve('esbuild')).href));

function entryPath(path, source) {
  const hash = createHash('sha256').update(`${FORMAT}\0${ESBUILD_VERSION}\0${TSCONFIG}\0${path}\0`).update(source).digest('hex');
  return join(CACHE_DIR, hash.slice(0, 2), `${hash.slice(2)}.js`);
}

async function transform(path, source) {
  const { transform: esbuildTransform } = await loadEsbuild();
  const { code } = await esbuildTransform(source, {
    loader: 'ts', format: 'esm', target: `node${process.versions.node}`, sourcemap: 'inline',
    sourcefile: path, tsconfigRaw: TSCONFIG,
  });
  return code;
}

// Written under a temporary name and renamed, so a process reading the cache never sees half
// a file, and two processes compiling the same file at once both write whole ones.
function store(entry, code) {
  try {
    mkdirSync(join(entry, '..'), { recursive: true });
    const part = `${entry}.${process.pid}.part`;
    writeFileSync(part, code);
    renameSync(part, entry);
  } catch {
    // A read-only or full disk costs speed, not correctness: the code was compiled anyway.
  }
}

/** The JavaScript for one TypeScript file (its absolute path and text), from the cache or compiled now. */
export async function compiled(path, source) {
  const entry = entryPath(path, source);
  try {
    return readFileSync(entry, 'utf8');
  } catch {
    const code = await transform(path, source);
    store(entry, code);
    return code;
  }
}

/** Compiles every file not yet in the cache (the test runner's first step); resolves with how many were compiled. */
export async function precompile(paths) {
  let made = 0;
  await Promise.all(paths.map(async (path) => {
    const source = readFileSync(path, 'utf8');
    const entry = entryPath(path, source);
    try { readFileSync(entry); return; } catch { /* not cached yet */ }
    store(entry, await transform(path, source));
    made++;
  }));
  return made;
}
