// Module hooks (registered by bin/ts-register.mjs): a .ts file loads as the JavaScript
// bin/ts-compile.mjs made of it. Resolution stays Node's own: Warren's imports name their
// files with the .ts extension (tsconfig's allowImportingTsExtensions), so only the load step,
// which Node would refuse for an unknown extension, needs a hook.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compiled } from './ts-compile.mjs';

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !new URL(url).pathname.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await compiled(path, await readFile(path, 'utf8'));
  return { format: 'module', source, shortCircuit: true };
}
