// The help texts, made from the command table (command-specs.ts): what `warren
// --help` and `warren <command> --help` print, with every flag the parser takes.
import type { CommandSpec } from './command-specs.ts';
import type { FlagSpec } from './flag-parser.ts';

function flagColumn(flag: FlagSpec): string {
  const names = flag.short ? `-${flag.short}, --${flag.name}` : `    --${flag.name}`;
  return flag.value ? `${names} ${flag.value}` : names;
}

function table(rows: Array<[string, string]>, indent: string): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}   ${right}`.trimEnd());
}

export function commandUsage(spec: CommandSpec): string {
  const lines = [spec.summary, '', `Usage: warren ${spec.name} ${spec.synopsis}`];
  if (spec.verbs?.length) {
    lines.push('', 'Verbs:', ...table(spec.verbs.map((v) => [`${v.name}${v.args ? ` ${v.args}` : ''}`, v.help]), '  '));
  }
  const shown = spec.flags.filter((f) => !f.hidden);
  if (shown.length > 0) lines.push('', 'Options:', ...table(shown.map((f) => [flagColumn(f), f.help]), '  '));
  if (spec.notes) lines.push('', spec.notes);
  return `${lines.join('\n')}\n`;
}

export function globalUsage(commands: readonly CommandSpec[]): string {
  return [
    'warren: a multi-tenant virtual Kubernetes control plane',
    '',
    'Usage: warren <command> [options]',
    '',
    'Commands:',
    ...table([...commands.map((c): [string, string] => [c.name, c.summary]), ['help', 'Show this help']], '  '),
    '',
    'Global options: -h, --help (on any command: that command\'s options), --version',
    'Use "warren <command> --help" for a command\'s verbs and options.',
    '',
  ].join('\n');
}
