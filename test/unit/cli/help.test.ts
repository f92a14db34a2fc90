// `--help` (or -h) after any subcommand prints that command's usage on stdout and exits 0,
// as users expect from a CLI; run as users do, through bin/warren.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const warren = fileURLToPath(new URL('../../../bin/warren', import.meta.url));

describe('warren <command> --help', () => {
  // Each command prints its own usage (its summary, then Usage: warren <command>), never the global help.
  const cases: Array<[string[], RegExp]> = [
    [['tenant', '--help'], /^Usage: warren tenant <verb>/m],
    [['tenant', 'create', '-h'], /^Usage: warren tenant <verb>/m],
    [['member', '--help'], /^Usage: warren member <verb>/m],
    [['serve', '--help'], /--kubeconfig FILE[\s\S]*--leader-elect /],
    [['apiserver', '-h'], /--listen HOST:PORT/],
    [['up', '--help'], /--members N[\s\S]*--verbose/],
    [['status', '--help'], /^Usage: warren status/m],
    [['apply', '--help'], /^Usage: warren apply/m],
    [['admin', '--help'], /^Usage: warren admin <verb>/m],
  ];
  for (const [args, usage] of cases) {
    it(args.join(' '), async () => {
      const { stdout, stderr } = await run(process.execPath, [warren, ...args], { timeout: 60_000 });
      assert.match(stdout, usage);
      assert.equal(stderr.replace(/^npm warn.*\n/gm, ''), '');
    });
  }
});
