// npm test's one-process type check (scripts/typecheck-and-lint.mjs) must type-check every
// program `npm run typecheck` does: it checked the root program only and linted console/web,
// so a type error in the console passed npm test and CI while `npm run typecheck` failed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('scripts/typecheck-and-lint.mjs', () => {
  it('type-checks every tsconfig that `npm run typecheck` passes to tsc -p', async () => {
    const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
    const wanted = [...(scripts.typecheck ?? '').matchAll(/-p\s+(\S+)/g)].map((m) => m[1]);
    assert.ok(wanted.length >= 2, `npm run typecheck names its tsconfigs: ${scripts.typecheck}`);
    const script = `${ROOT}scripts/typecheck-and-lint.mjs`;
    const { PROJECTS } = (await import(script)) as { PROJECTS: Array<{ config: string; typecheck: boolean }> };
    const checked = PROJECTS.filter((p) => p.typecheck).map((p) => p.config);
    for (const config of wanted) assert.ok(checked.includes(config as string), `${config} is type-checked by npm run typecheck, not by npm test's check (checked: ${checked.join(', ')})`);
  });
});
