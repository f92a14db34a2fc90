// The contract suite in one process (test/real/contract.test.ts starts it as a child,
// with WARREN_CONTRACT_KUBECONFIG set): test/contract/*.test.ts imported in turn, so
// their tests register and run here one file after another. One process instead of one
// per file: against a real apiserver each file's tests take seconds, and loading tsx and
// the client libraries again per file took longer than that (19 files: about 140 s of
// tests in 420 s on a loaded machine). WARREN_CONTRACT_SHARD=i/n runs every n-th file
// from the i-th: the parent runs a few shards at once, because most of the suite's time
// is the controller-manager's (garbage collection, namespace deletion), not CPU.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [index, count] = (process.env.WARREN_CONTRACT_SHARD ?? '0/1').split('/').map(Number);
const dir = join(import.meta.dirname, '..', 'contract');
const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort();
for (const [i, file] of files.entries()) {
  if (i % (count ?? 1) === index) await import(pathToFileURL(join(dir, file)).href);
}
