// `npm test`'s type check and lint in one process over one TypeScript program per tsconfig
// (scripts/run-checks.mjs starts it). Why: run apart, `tsc --noEmit` and `eslint .` each built
// and type-checked the same program (tsc 35 s of CPU, eslint 88 s, 2 GB; eslint's type-aware
// rules spent most of theirs asking the checker what tsc had already worked out). Here the
// type check runs first, over the programs eslint then lints with (parserOptions.programs
// instead of the projectService), so the rules find the types computed.
// Same verdicts as `tsc --noEmit -p tsconfig.json` and `eslint .`: the config is eslint.config.js
// unchanged except where the types come from. `npm run typecheck` / `npm run lint` still run
// the tools alone.
import { ESLint } from 'eslint';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The programs `npm run typecheck` checks (`tsc -p` each), which eslint lints too. console/web was
// linted but not type-checked here, so a type error there passed `npm test` (and CI) while
// `npm run typecheck` failed on it; its program is built for eslint anyway, so checking it costs ~2 s.
export const PROJECTS = [{ config: 'tsconfig.json', typecheck: true }, { config: 'console/tsconfig.json', typecheck: true }];

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

/** The program `tsc -p <config>` builds, and its diagnostics (config errors included). */
function buildProgram(config) {
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d),
  });
  if (!parsed) return { program: undefined, diagnostics: configErrors };
  // Parent pointers set: typescript-eslint converts the program's own source files to its AST.
  const host = ts.createCompilerHost(parsed.options, true);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, host, configFileParsingDiagnostics: parsed.errors });
  return { program, diagnostics: [...configErrors, ...parsed.errors] };
}

function typecheck(program, diagnostics) {
  const all = [...diagnostics, ...(program ? ts.getPreEmitDiagnostics(program) : [])];
  // Colour only on a terminal, as tsc does.
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  if (all.length > 0) console.log(format(all, formatHost));
  return all.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
}

async function main() {
  const began = Date.now();
  const programs = [];
  let typeErrors = 0;
  for (const { config, typecheck: check } of PROJECTS) {
    const { program, diagnostics } = buildProgram(config);
    if (program) programs.push(program);
    if (check) typeErrors += typecheck(program, diagnostics);
    else if (!program) typeErrors += typecheck(undefined, diagnostics);
  }
  console.log(`typecheck (tsc --noEmit -p ${PROJECTS.filter((p) => p.typecheck).map((p) => p.config).join(', -p ')}): ${typeErrors === 0 ? 'pass' : `FAIL (${typeErrors} errors)`} in ${((Date.now() - began) / 1000).toFixed(1)} s`);

  const lintBegan = Date.now();
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false, programs, tsconfigRootDir: dirname(join(ROOT, 'tsconfig.json')) } },
    },
  });
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const report = await formatter.format(results);
  if (report.trim()) console.log(report.trimEnd());
  const lintErrors = results.reduce((sum, r) => sum + r.errorCount, 0);
  console.log(`lint (eslint .): ${lintErrors === 0 ? 'pass' : `FAIL (${lintErrors} errors)`} in ${((Date.now() - lintBegan) / 1000).toFixed(1)} s`);

  return typeErrors === 0 && lintErrors === 0 ? 0 : 1;
}

// Imported (a test reads PROJECTS), it checks nothing. Run, it must never skip the checks: the
// script's path is compared through realpath, as Node resolves symlinks for import.meta.url.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
