// The import rules of src/ as one table (docs/architecture.md, "Layers"), enforced by
// lint: each layer names the layers it may import; anything else is an error. A
// relative specifier is resolved against the importing file, so `../../gateway/x.ts`
// and `../gateway/x.ts` are judged alike, wherever the file sits. Packages are not
// judged here (src/core's ban on I/O packages is eslint.config.js's).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const BELOW_TENANTS = ['core', 'observability', 'http', 'pki', 'kube', 'workqueue'];

/** Layer → the layers it may import (besides itself). `controllers/*` is every controller folder but runtime. */
export const ALLOWED = {
  core: [],
  observability: ['core'],
  http: ['core', 'observability'],
  pki: ['core'],
  config: ['core', 'observability'],
  kube: ['core', 'observability', 'http', 'pki'],
  // The per-key work queue (client-go's workqueue): the controllers' and the embedded apiserver's simulator's.
  workqueue: ['core'],
  // The embedded apiserver stands in for a real kube-apiserver: it knows nothing of Warren's tenants,
  // gateway or controllers.
  apiserver: ['core', 'observability', 'http', 'pki', 'workqueue'],
  // The Tenant API (CRD, directory, credentials, platform secrets, provisioning): below both users.
  tenants: BELOW_TENANTS,
  // The web console for platform admins (ADR 0033): reads the Tenant API and the host; the gateway that mounts
  // it hands it authentication (it imports no gateway code).
  console: [...BELOW_TENANTS, 'tenants'],
  gateway: [...BELOW_TENANTS, 'tenants', 'console'],
  'controllers/runtime': [...BELOW_TENANTS, 'tenants'],
  // A controller imports only the runtime and the layers below: never another controller, never the gateway.
  'controllers/*': [...BELOW_TENANTS, 'tenants', 'controllers/runtime'],
};

/** The console's browser code (outside src/, bundled by esbuild) and the one part of src/ it may import. */
const BROWSER = 'console/web';
const BROWSER_MAY_IMPORT = 'src/console/view';

/** The layer of a repo-relative path under src/, or undefined (composition roots, outside src/). */
export function layerOf(rel) {
  const parts = rel.split('/');
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  const top = parts[1];
  if (top === 'controllers') {
    if (parts.length < 4) return undefined;
    return parts[2] === 'runtime' ? 'controllers/runtime' : `controllers/${parts[2]}`;
  }
  return top in ALLOWED ? top : undefined;
}

function allowed(from, to) {
  if (from === to) return true;
  const list = from.startsWith('controllers/') && from !== 'controllers/runtime' ? ALLOWED['controllers/*'] : ALLOWED[from];
  return list.includes(to);
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point inward: each layer of src/ imports only the layers lint/layers.js allows it.' },
    schema: [],
    messages: { outward: '{{from}} may not import {{to}} ({{spec}}): see lint/layers.js and docs/architecture.md.' },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const from = file.startsWith(`${BROWSER}/`) ? BROWSER : layerOf(file);
    if (!from) return {};
    const check = (node) => {
      const spec = node?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (from === BROWSER) {
        // The page's code runs in the browser: its own files and the console's pure view models, nothing else.
        if (!target.startsWith(`${BROWSER}/`) && !target.startsWith(`${BROWSER_MAY_IMPORT}/`)) {
          context.report({ node, messageId: 'outward', data: { from, to: target, spec } });
        }
        return;
      }
      const to = layerOf(target);
      if (to === undefined) {
        // A composition root (src/cli, src/up, src/warren.ts) is above everything.
        if (target.startsWith('src/')) context.report({ node, messageId: 'outward', data: { from, to: target, spec } });
        return;
      }
      if (!allowed(from, to)) context.report({ node, messageId: 'outward', data: { from, to, spec } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { layers: layersRule } };
