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
  const cases: Array<[string[], RegExp]> = [
    [['tenant', '--help'], /^Usage: warren tenant </],
    [['tenant', 'create', '-h'], /^Usage: warren tenant </],
    [['member', '--help'], /^Usage: warren member </],
    [['serve', '--help'], /--upstream-kubeconfig FILE/],
    [['apiserver', '-h'], /--listen HOST:PORT/],
    [['up', '--help'], /--members N/],
    [['status', '--help'], /^Usage: warren status/],
    [['apply', '--help'], /^Usage: warren apply/],
  ];
  for (const [args, usage] of cases) {
    it(args.join(' '), async () => {
      const { stdout, stderr } = await run(process.execPath, [warren, ...args], { timeout: 60_000 });
      assert.match(stdout, usage);
      assert.equal(stderr.replace(/^npm warn.*\n/gm, ''), '');
    });
  }
});
