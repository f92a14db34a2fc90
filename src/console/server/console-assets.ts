// The console's static assets: index.html and app.css as written in
// console/web/, and app.js bundled from console/web/main.ts by esbuild (the
// same esbuild tsx runs on), in memory, once per process, on first request.
// Nothing is fetched at run time and no build output can go stale: the
// package ships the sources and the bundle is made from them (ADR 0033).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

export function createAssetCache(): (name: string) => Promise<Asset | undefined> {
  const cache = new Map<string, Promise<Asset>>();
  return (name) => {
    if (name !== 'app.js' && !Object.hasOwn(FILES, name)) return Promise.resolve(undefined);
    let asset = cache.get(name);
    if (!asset) {
      const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
      asset = file
        ? readFile(`${WEB_DIR}${file.file}`).then((body) => ({ contentType: file.contentType, body }))
        : bundleConsoleScript().then((body) => ({ contentType: 'text/javascript; charset=utf-8', body }));
      // A failed build is not remembered: the next request tries again.
      asset.catch(() => cache.delete(name));
      cache.set(name, asset);
    }
    return asset;
  };
}
