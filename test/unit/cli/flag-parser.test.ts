// The pflag-like parser: kubectl's spellings parse alike, and every mistake is a
// UsageError in kubectl's words (never parseArgs' "place it after '--'").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFlags, UsageError, type FlagSpec } from '../../../src/cli/flag-parser.ts';

const SPECS: FlagSpec[] = [
  { name: 'output', short: 'o', type: 'string', help: '' },
  { name: 'wait', type: 'boolean', help: '' },
  { name: 'admin', type: 'string', multiple: true, help: '' },
  { name: 'kubeconfig', type: 'string', help: '' },
  { name: 'upstream-kubeconfig', type: 'string', aliasOf: 'kubeconfig', hidden: true, help: '' },
];

describe('parseFlags', () => {
  const same: Array<[string, string[]]> = [
    ['--output json', ['--output', 'json']],
    ['--output=json', ['--output=json']],
    ['-o json', ['-o', 'json']],
    ['-ojson', ['-ojson']],
    ['-o=json', ['-o=json']],
  ];
  for (const [what, argv] of same) {
    it(`${what} sets output=json`, () => {
      assert.deepEqual(parseFlags(SPECS, ['list', ...argv]).values, { output: 'json' });
    });
  }

  it('takes flags before, between and after positionals; -- ends flags', () => {
    const r = parseFlags(SPECS, ['--wait', 'create', '--admin', 'a', 'acme', '--admin=b', '--', '--not-a-flag']);
    assert.deepEqual(r.positionals, ['create', 'acme', '--not-a-flag']);
    assert.deepEqual(r.values, { wait: true, admin: ['a', 'b'] });
  });

  it('booleans: --wait, --wait=false, --wait=true; anything else is refused', () => {
    assert.equal(parseFlags(SPECS, ['--wait=false']).values.wait, false);
    assert.equal(parseFlags(SPECS, ['--wait=true']).values.wait, true);
    assert.throws(() => parseFlags(SPECS, ['--wait=maybe']), { name: 'Error', message: 'invalid argument "maybe" for "--wait" flag: want true or false' });
  });

  it('a deprecated alias lands in the new name, with a warning', () => {
    const r = parseFlags(SPECS, ['--upstream-kubeconfig', '/kc']);
    assert.deepEqual(r.values, { kubeconfig: '/kc' });
    assert.deepEqual(r.warnings, ['Flag --upstream-kubeconfig has been deprecated, use --kubeconfig instead']);
  });

  const refused: Array<[string[], string]> = [
    [['--context'], 'unknown flag: --context'],
    [['--context=x'], 'unknown flag: --context'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['--kubeconfig'], 'flag needs an argument: --kubeconfig'],
    [['-o'], "flag needs an argument: 'o' in -o"],
  ];
  for (const [argv, message] of refused) {
    it(`${argv.join(' ')} → ${message}`, () => {
      assert.throws(() => parseFlags(SPECS, argv), (err: unknown) => err instanceof UsageError && err.message === message);
    });
  }

  it('property: any mix of spellings gives the same values and positionals', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    fc.assert(fc.property(
      fc.array(word, { maxLength: 3 }), fc.option(word, { nil: undefined }), fc.array(word, { maxLength: 3 }), fc.boolean(), fc.nat(),
      (positionals, output, admins, wait, seed) => {
        const pieces: string[][] = positionals.map((p) => [p]);
        const pick = (i: number, forms: string[][]): string[] => forms[(seed + i) % forms.length]!;
        if (output !== undefined) pieces.push(pick(0, [['-o', output], [`-o${output}`], [`--output=${output}`], ['--output', output]]));
        admins.forEach((a, i) => pieces.push(pick(i + 1, [['--admin', a], [`--admin=${a}`]])));
        if (wait) pieces.push(pick(7, [['--wait'], ['--wait=true']]));
        // Flags may sit anywhere among positionals, but the positionals keep their order.
        const flags = pieces.slice(positionals.length);
        const argv = [...flags.slice(0, seed % (flags.length + 1)).flat(), ...positionals, ...flags.slice(seed % (flags.length + 1)).flat()];
        const r = parseFlags(SPECS, argv);
        assert.deepEqual(r.positionals, positionals);
        assert.equal(r.values.output, output);
        assert.deepEqual(r.values.admin, admins.length > 0 ? admins : undefined);
        assert.equal(r.values.wait, wait ? true : undefined);
      },
    ));
  });
});
