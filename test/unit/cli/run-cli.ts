// Runs `warren ...` in-process through main() with captured output, as a user
// would see it: exit code, stdout, stderr.
import { main } from '../../../src/cli/main.ts';

export interface CliResult { code: number; stdout: string; stderr: string }

export async function runCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (t) => void (stdout += t), err: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}
