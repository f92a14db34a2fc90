// docs/quickstart.md, run as written: each numbered section's shell commands
// (from section 2 on; section 1 is the `warren up` this test starts) are run in
// order, in a folder laid out like a clone after `npm start` (.warren, bin,
// test, tenants), and what the doc shows must be what a fresh run prints.
// - An output block after a shell block is the output of that block's last
//   command, compared cell by cell once tenant ids and ages are masked; it is
//   polled (propagation takes a moment), so the doc shows the settled state.
// - A `# comment` after a command lists words its output must contain
//   (`export` and `unset` lines set the environment of the lines after them).
// The doc drifting from Warren (a column renamed, a count that is not what a
// fresh run gives) fails here.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/warren-process.ts';
import { eventually } from '../helpers/poll.ts';
import { ensureStopped, freePortBase, startUp, type RunResult, type UpProcess } from '../fixtures/up/warren-up-process.ts';

interface Step { section: string; commands: string[]; expected?: string }

/** The doc's steps: per `## N.` section from 2 on, its ```sh blocks, each with the unlabeled block that follows it. */
function quickstartSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  let section = '';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) section = line.slice(3);
    if (line !== '```sh' || !/^[2-9]\./.test(section)) continue;
    const commands: string[] = [];
    for (i++; lines[i] !== '```'; i++) if ((lines[i] ?? '').trim()) commands.push(lines[i] ?? '');
    let j = i + 1;
    while (j < lines.length && (lines[j] ?? '').trim() === '') j++;
    let expected: string | undefined;
    if (lines[j] === '```') {
      const out: string[] = [];
      for (j++; lines[j] !== '```'; j++) out.push(lines[j] ?? '');
      expected = out.join('\n');
      i = j;
    }
    steps.push({ section, commands, ...(expected === undefined ? {} : { expected }) });
  }
  return steps;
}

const AGE = /^\d+[smhd](\d+[smh])?$/;

/** Rows of cells, with each tenant's id and every age masked. */
function shape(text: string, ids: Array<[string, string]>): string[][] {
  let masked = text;
  for (const [id, mask] of ids) masked = masked.split(id).join(mask);
  return masked.trim().split('\n').filter((l) => l.trim()).map((l) => l.trim().split(/\s{2,}/).map((cell) => (AGE.test(cell) ? '<age>' : cell)));
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd, env, timeout: 180_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

describe('docs/quickstart.md, run as written', { timeout: 900_000 }, () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/quickstart.md'), 'utf8');
  const steps = quickstartSteps(doc);
  let root: string;
  let up: UpProcess | undefined;
  let ids: Array<[string, string]> = [];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'warren-e2e-quickstart-'));
    const clone = join(root, 'clone');
    // A folder laid out like the clone: the repo's files by symlink, .warren the running system's.
    mkdirSync(clone);
    for (const entry of ['bin', 'test', 'tenants', 'node_modules', 'package.json', 'src', 'tsconfig.json', 'deploy']) symlinkSync(join(REPO_ROOT, entry), join(clone, entry));
    symlinkSync(join(root, 'data'), join(clone, '.warren'));
    env.HOME = root;
    env.CWD = clone;
    up = startUp({ dataDir: join(root, 'data'), portBase: await freePortBase(2), members: 2, timeoutMs: 180_000 });
    const out = await up.summary;
    const found = [...out.matchAll(/^ {2}tenant (\S+) Ready \(id (\S+)\)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    const docIds = [...doc.matchAll(/^ {2}tenant (\S+) Ready \(id (\S+)\)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    // The doc's ids and this run's are both masked to the tenant's name.
    ids = [...found, ...docIds].map(([name, id]) => [id, `<${name}-id>`]);
  });

  after(async () => {
    await ensureStopped(up);
    rmSync(root, { recursive: true, force: true });
  });

  it('has steps to run, and the doc shows the output of each section that prints a table', () => {
    assert.ok(steps.length >= 4, `steps found: ${JSON.stringify(steps.map((s) => s.section))}`);
    assert.ok(steps.filter((s) => s.expected !== undefined).length >= 3);
  });

  it('every command works and prints what the doc shows', async () => {
    const cwd = env.CWD!;
    for (const step of steps) {
      for (const [index, line] of step.commands.entries()) {
        const [command = '', comment] = line.split(/\s+#\s+/, 2);
        const exported = /^export (\w+)=(\S+)$/.exec(command.trim());
        if (exported) { env[exported[1]!] = join(cwd, exported[2]!); continue; }
        const unset = /^unset (\w+)$/.exec(command.trim());
        if (unset) { delete env[unset[1]!]; continue; }
        const last = index === step.commands.length - 1;
        const words = comment?.split(/\s+/).filter((w) => /\w/.test(w)) ?? [];
        // Polled: the doc shows the settled state (bindings applied, replicas ready).
        await eventually(async () => {
          const r = await sh(command, cwd, env);
          const text = r.stdout + r.stderr;
          if (words.some((w) => !text.includes(w))) return undefined;
          if (last && step.expected !== undefined) {
            if (r.code !== 0) return undefined;
            return JSON.stringify(shape(r.stdout, ids)) === JSON.stringify(shape(step.expected, ids)) ? r : undefined;
          }
          return words.length > 0 || r.code === 0 ? r : undefined;
        }, `${step.section}: \`${command.trim()}\` to print what the doc shows`, { timeoutMs: 120_000, intervalMs: 1_000 }).catch(async (err: unknown) => {
          const r = await sh(command, cwd, env);
          if (last && step.expected !== undefined) assert.deepEqual(shape(r.stdout, ids), shape(step.expected, ids), `${step.section}: ${command}\n${r.stderr}`);
          throw err;
        });
      }
    }
  });
});
