// `warren` in-process through main(): each command's --help lists every flag
// its parser accepts, mistakes read as kubectl's do and exit 1, version and
// completion come from the same command table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { COMMANDS } from '../../../src/cli/command-specs.ts';
import { runCli } from './run-cli.ts';

describe('warren main()', () => {
  for (const spec of COMMANDS) {
    it(`${spec.name} --help lists every flag it accepts, and no hidden one`, async () => {
      const r = await runCli([spec.name, '--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Usage: warren ${spec.name} `, 'm'));
      for (const flag of spec.flags) {
        const listed = new RegExp(`--${flag.name}\\b(?!-)`).test(r.stdout);
        assert.equal(listed, !flag.hidden, `--${flag.name} in ${spec.name} --help`);
      }
    });
  }

  it('the global help names every command', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    for (const spec of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${spec.name} `, 'm'));
  });

  const mistakes: Array<[string[], string]> = [
    [['tenant', 'list', '--bogus'], "error: unknown flag: --bogus\nSee 'warren tenant --help' for usage.\n"],
    [['admin', 'token', '--kubeconfig'], "error: flag needs an argument: --kubeconfig\nSee 'warren admin --help' for usage.\n"],
    [['tenant', 'list', '--admin', 'x'], 'error: --admin does not apply to "warren tenant list" (only to create)\nSee \'warren tenant --help\' for usage.\n'],
    [['tenant', 'frobnicate'], 'error: unknown verb "frobnicate" for "warren tenant" (one of: create, list, get, delete, kubeconfig, revoke)\nSee \'warren tenant --help\' for usage.\n'],
    [['frobnicate'], 'error: unknown command "frobnicate" for "warren"\nRun \'warren --help\' for usage.\n'],
    [['tenant', 'list', '-o', 'toml'], 'error: unable to match a printer suitable for the output format "toml", allowed formats are: wide,json,yaml,name\n'],
    [['tenant', 'create', 'acme'], "error: tenant create needs at least one --admin USER: the user who gets the tenant's first kubeconfig (repeat --admin for more, --user for non-admins)\n"],
    [['tenant', 'create', 'acme', '--admin', 'a', '--quota', 'pods=3'], 'error: unknown --quota "pods": one of namespaces, objectsPerResource, cpu, memory, storage\n'],
    [['member', 'add', 'bad_name', '--cluster-kubeconfig', '/x'], 'error: invalid member cluster name "bad_name": use lower case letters, digits and \'-\', starting and ending with a letter or digit (e.g. "member-1")\n'],
    [['member', 'add', 'm1', '--cluster-kubeconfig', '/no/such/file'], 'error: the member kubeconfig "/no/such/file" does not exist\n'],
    [['apply', '-f', '/no/such/dir'], 'error: the path "/no/such/dir" does not exist\n'],
    [['apply'], "error: must specify one of -f and --filename\nSee 'warren apply --help' for usage.\n"],
    [['completion', 'fish'], 'error: unsupported shell "fish": bash or zsh\n'],
  ];
  for (const [argv, stderr] of mistakes) {
    it(`warren ${argv.join(' ')} → exit 1, ${stderr.split('\n')[0]}`, async () => {
      const r = await runCli(argv, { KUBECONFIG: '/no/such/kubeconfig' });
      assert.deepEqual({ code: r.code, stderr: r.stderr, stdout: r.stdout }, { code: 1, stderr, stdout: '' });
    });
  }

  it('no host: the error says where it looked', async () => {
    const r = await runCli(['tenant', 'list', '--context', 'prod'], { KUBECONFIG: '/no/such/a:/no/such/b' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: no host kubeconfig \(from \$KUBECONFIG=\/no\/such\/a:\/no\/such\/b\)/);
  });

  it('version and --version print the package version; -o json parses', async () => {
    const line = await runCli(['version']);
    assert.match(line.stdout, /^warren v\d+\.\d+\.\d+ \(node v\d+/);
    assert.equal((await runCli(['--version'])).stdout, line.stdout);
    const json = JSON.parse((await runCli(['version', '-o', 'json'])).stdout) as { warrenVersion: string };
    assert.match(json.warrenVersion, /^v\d+\.\d+\.\d+$/);
  });

  it('completion bash offers every command and every visible flag, and is valid bash', async () => {
    const r = await runCli(['completion', 'bash']);
    assert.equal(r.code, 0);
    for (const spec of COMMANDS) {
      assert.match(r.stdout, new RegExp(`\\b${spec.name}\\b`));
      for (const flag of spec.flags.filter((f) => !f.hidden)) assert.ok(r.stdout.includes(`--${flag.name}`), `--${flag.name}`);
    }
    await promisify(execFile)('bash', ['-n', '-c', r.stdout]);
  });

  it('completion bash completes verbs and flags in a real bash', async () => {
    const script = `${(await runCli(['completion', 'bash'])).stdout}
COMP_WORDS=(warren tenant cr); COMP_CWORD=2; _warren; echo "verbs:\${COMPREPLY[*]}"
COMP_WORDS=(warren tenant list --no); COMP_CWORD=3; _warren; echo "flags:\${COMPREPLY[*]}"
COMP_WORDS=(warren ser); COMP_CWORD=1; _warren; echo "commands:\${COMPREPLY[*]}"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script]);
    assert.equal(stdout, 'verbs:create\nflags:--no-headers\ncommands:serve\n');
  });

  it('completion zsh loads the same function through bashcompinit', async () => {
    const r = await runCli(['completion', 'zsh']);
    assert.match(r.stdout, /^#compdef warren\n/);
    assert.match(r.stdout, /bashcompinit/);
    assert.match(r.stdout, /complete -o default -F _warren warren/);
  });
});
