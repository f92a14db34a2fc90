// Diagnostic preload for `warren apiserver` (issue 18, session 11): counts the
// requests the embedded apiserver receives by method and path shape (namespace
// and ConfigMap names folded, `watch` and metadata-only LISTs marked) and the
// watches open, into $TMPDIR/upstream-counts-<pid>.json every second. Use:
//   NODE_OPTIONS="--import $PWD/bench/upstream-request-counts.mjs" <a bench or script that starts servers>
// Only a process whose argv names `apiserver` counts; the others ignore it.
// Diff two snapshots around a burst to get requests per write.
import https from 'node:https';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setInterval } from 'node:timers';

if (process.argv.includes('apiserver')) {
  const counts = new Map();
  const open = new Map();
  const shape = (url) => {
    const [path, query = ''] = url.split('?');
    const folded = path.replace(/\/namespaces\/[^/]+/, '/namespaces/N').replace(/(configmaps|namespaces\/N\/[a-z]+)\/[^/]+$/, '$1/NAME');
    return folded + (/(^|&)watch=(true|1)/.test(query) ? ' watch' : '') + (/PartialObjectMetadata/.test(query) ? ' meta' : '');
  };
  for (const mod of [https, http]) {
    const emit = mod.Server.prototype.emit;
    mod.Server.prototype.emit = function countRequest(event, req, res) {
      if (event === 'request') {
        const key = `${req.method} ${shape(req.url)}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (key.endsWith(' watch')) {
          open.set(key, (open.get(key) ?? 0) + 1);
          res.once('close', () => open.set(key, open.get(key) - 1));
        }
      }
      return emit.apply(this, arguments);
    };
  }
  const file = join(tmpdir(), `upstream-counts-${process.pid}.json`);
  const dump = () => writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), counts: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])), openWatches: Object.fromEntries(open) }, null, 1));
  setInterval(dump, 1000).unref();
  process.on('exit', dump);
}
