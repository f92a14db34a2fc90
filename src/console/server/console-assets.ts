// The console's static assets: index.html and app.css as written in
// console/web/, and app.js bundled from console/web/main.ts by esbuild (the
// same esbuild tsx runs on), in memory, once per process, on first request.
// Nothing is fetched at run time and no build output can go stale: the
// package ships the sources and the bundle is made from them (ADR 0033).
// A failed build is remembered for a pause (createAssetCache).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ApiError } from '../../core/api-error.ts';
import { levelled } from '../../observability/log-line.ts';

export const WEB_DIR = fileURLToPath(new URL('../../../console/web/', import.meta.url));

export interface Asset {
  contentType: string;
  body: Buffer;
}

const FILES: Record<string, { file: string; contentType: string }> = {
  '': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  'app.css': { file: 'app.css', contentType: 'text/css; charset=utf-8' },
};

/** The bundled browser code: one ES module, no source map (nothing to leak, nothing to fetch). */
export async function bundleConsoleScript(): Promise<Buffer> {
  const result = await build({
    entryPoints: [`${WEB_DIR}main.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error('esbuild produced no console bundle');
  return Buffer.from(out.contents);
}

export interface AssetCacheOptions {
  log: (line: string) => void;
  /** The bundler (default: esbuild over console/web/main.ts). */
  bundle?: () => Promise<Buffer>;
  /** How long a failed build is answered from memory before it is tried again (default 30 s). */
  retryAfterMs?: number;
  now?: () => number;
}

/**
 * The assets, each made once. A failed build is remembered: until `retryAfterMs` has passed every request
 * gets the same 500 at once (a broken install must not run esbuild per request, nor flood the log), with a
 * message that says what failed and when it is tried again; the cause is logged once, never sent (the
 * sign-in page's script is served before sign-in).
 */
export function createAssetCache(options: AssetCacheOptions): (name: string) => Promise<Asset | undefined> {
  const bundle = options.bundle ?? bundleConsoleScript;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Promise<Asset>>();
  const failed = new Map<string, number>(); // name → when its build failed
  return (name) => {
    if (name !== 'app.js' && !Object.hasOwn(FILES, name)) return Promise.resolve(undefined);
    const failedAt = failed.get(name);
    if (failedAt !== undefined && now() - failedAt >= retryAfterMs) {
      failed.delete(name);
      cache.delete(name);
    }
    let asset = cache.get(name);
    if (!asset) {
      const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
      const made = file
        ? readFile(`${WEB_DIR}${file.file}`).then((body) => ({ contentType: file.contentType, body }))
        : bundle().then((body) => ({ contentType: 'text/javascript; charset=utf-8', body }));
      asset = made.catch((err: unknown) => {
        failed.set(name, now());
        options.log(levelled('error', `console: ${name} could not be made: ${err instanceof Error ? err.message : String(err)}`, { event: 'console-asset-failed', asset: name }));
        const seconds = Math.ceil(retryAfterMs / 1000);
        throw new ApiError('InternalError', `the console's ${name} could not be built (the gateway's log says why); it is tried again ${seconds} s after the failure`, { retryAfterSeconds: seconds });
      });
      cache.set(name, asset);
    }
    return asset;
  };
}
