// The bench's tenant on a real host, made as a platform admin would:
// `warren tenant create NAME --admin alice --wait --kubeconfig-out FILE`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BenchTenant { id: string; kubeconfig: string }

export async function createBenchTenant(options: { repoRoot: string; hostKubeconfigPath: string; name: string }): Promise<BenchTenant> {
  const scratch = mkdtempSync(join(tmpdir(), 'warren-real-overhead-'));
  try {
    const out = join(scratch, `${options.name}.kubeconfig`);
    const { stdout } = await run(process.execPath, [join(options.repoRoot, 'bin/warren'), 'tenant', 'create', options.name,
      '--kubeconfig', options.hostKubeconfigPath, '--admin', 'alice', '--wait', '--kubeconfig-out', out], { cwd: options.repoRoot, timeout: 300_000 });
    const id = /Ready \(id (\w+)\)/.exec(stdout)?.[1];
    if (!id) throw new Error(`tenant create ${options.name}: no id in its output: ${stdout}`);
    return { id, kubeconfig: readFileSync(out, 'utf8') };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
