// The `warren` command: the composition root, and the only place that reads
// process.env or argv (commands get them through CliIo). Flags are parsed here
// for every command from one table (command-specs.ts), so each command's
// --help, its errors and shell completion agree with what it accepts.
// Subcommands are imported when chosen: `warren apiserver` must not load the
// gateway, the controllers and client-node (about 120 MiB it would never use).
import { COMMANDS, commandSpec } from './command-specs.ts';
import { processIo, type CliIo, type CommandInput } from './cli-io.ts';
import { parseFlags, UsageError } from './flag-parser.ts';
import { commandUsage, globalUsage } from './usage.ts';

type Runner = (input: CommandInput) => Promise<number>;

const RUNNERS: Record<string, () => Promise<Runner>> = {
  apiserver: async () => (await import('./apiserver-command.ts')).runApiServerCommand,
  serve: async () => (await import('./serve-command.ts')).runServeCommand,
  up: async () => (await import('./up-command.ts')).runUpCommand,
  tenant: async () => (await import('./tenant-command.ts')).runTenantCommand,
  member: async () => (await import('./member-command.ts')).runMemberCommand,
  apply: async () => (await import('./apply-command.ts')).runApplyCommand,
  status: async () => (await import('./status-command.ts')).runStatusCommand,
  admin: async () => (await import('./admin-command.ts')).runAdminCommand,
  version: async () => (await import('./version-command.ts')).runVersionCommand,
  completion: async () => (await import('./completion-command.ts')).runCompletionCommand,
};

/** Runs one command line; returns the exit code. Errors print as kubectl prints them: `error: ...`, exit 1. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    io.err(`error: ${(err as Error).message}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.err(globalUsage(COMMANDS));
    return 2;
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    const about = command === 'help' && rest[0] ? commandSpec(rest[0]) : undefined;
    io.out(about ? commandUsage(about) : globalUsage(COMMANDS));
    return 0;
  }
  const name = command === '--version' ? 'version' : command;
  const spec = commandSpec(name);
  const runner = RUNNERS[name];
  if (!spec || !runner) {
    io.err(`error: unknown command "${command}" for "warren"\nRun 'warren --help' for usage.\n`);
    return 1;
  }
  let parsed;
  try {
    parsed = parseFlags(spec.flags, rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`error: ${err.message}\nSee 'warren ${name} --help' for usage.\n`);
    return 1;
  }
  for (const warning of parsed.warnings) io.err(`${warning}\n`);
  // `warren tenant help` as well as `warren tenant --help`.
  if (parsed.values.help === true || (spec.verbs && parsed.positionals[0] === 'help')) {
    io.out(commandUsage(spec));
    return 0;
  }
  if (spec.verbs && name !== 'completion') {
    const verb = parsed.positionals[0];
    if (verb === undefined) {
      io.err(commandUsage(spec));
      return 2;
    }
    if (!spec.verbs.some((v) => v.name === verb)) {
      io.err(`error: unknown verb "${verb}" for "warren ${name}" (one of: ${spec.verbs.map((v) => v.name).join(', ')})\nSee 'warren ${name} --help' for usage.\n`);
      return 1;
    }
    const misplaced = spec.flags.find((f) => f.verbs && !f.verbs.includes(verb) && parsed.values[f.aliasOf ?? f.name] !== undefined);
    if (misplaced) {
      io.err(`error: --${misplaced.name} does not apply to "warren ${name} ${verb}" (only to ${misplaced.verbs!.join(', ')})\nSee 'warren ${name} --help' for usage.\n`);
      return 1;
    }
  }
  return (await runner())({ io, values: parsed.values, positionals: parsed.positionals });
}
