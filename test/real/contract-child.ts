// The contract suite in one process (test/real/contract.test.ts starts it as a child,
// with WARREN_CONTRACT_KUBECONFIG set): every test/contract/*.test.ts imported in
// turn, so their tests register and run here one file after another. One process
// instead of one per file: against a real apiserver each file's tests take seconds,
// and loading tsx and the client libraries again per file took longer than that
// (19 files: about 140 s of tests in 420 s on a loaded machine).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = join(import.meta.dirname, '..', 'contract');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort()) {
  await import(pathToFileURL(join(dir, file)).href);
}
