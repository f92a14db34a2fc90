// A test file never imports another test file (eslint.config.js): the unit and integration tiers run several
// files in one process (scripts/test-batch.mjs), and an imported test file's tests run again inside the
// importer. The case of session 11: two property files imported names.test.ts and ran its 50 tests three times.
// The rules are taken from the configuration eslint applies to a test file, so the check is the one `npm test` runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = ['no-restricted-imports', 'no-restricted-syntax'] as const;

async function lintAsTestFile(file: string, code: string): Promise<string[]> {
  const config = await new ESLint({ cwd: ROOT }).calculateConfigForFile(file) as { rules?: Record<string, Linter.RuleEntry> };
  const rules = Object.fromEntries(RULES.flatMap((r) => (config.rules?.[r] ? [[r, config.rules[r]]] : [])));
  const messages = new Linter().verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser }, rules }], { filename: file });
  return messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('lint: a test file never imports another test file', () => {
  const cases: Array<{ code: string; refused: boolean }> = [
    ...["import './names.test.ts';", "import { arb } from '../core/names.test.ts';", "import { arb } from '../core/names.test';",
      "export { arb } from './names.test.mjs';", "const m = await import('./names.test.ts');"].map((code) => ({ code, refused: true })),
    ...["import { arb } from './name-arbitraries.ts';", "import { poll } from '../../helpers/poll.ts';", "import { testing } from './testing.ts';",
      "const m = await import('./latest.ts');"].map((code) => ({ code, refused: false })),
  ];
  for (const { code, refused } of cases) {
    it(`${refused ? 'refuses' : 'allows'} ${code}`, async () => {
      for (const file of ['test/unit/core/x.test.ts', 'test/integration/gateway/x.test.ts', 'test/e2e/x.test.ts']) {
        const found = await lintAsTestFile(file, code);
        if (!refused) assert.deepEqual(found, [], file);
        else {
          assert.equal(found.length, 1, `${file}: ${found.join('; ')}`);
          assert.match(found[0] ?? '', /never imports another test file/);
        }
      }
    });
  }
});
