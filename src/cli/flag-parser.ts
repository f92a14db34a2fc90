// The CLI's flag parser, pflag-like (what kubectl users know): `--flag value`,
// `--flag=value`, `-o json`, `-ojson`, boolean `--wait` or `--wait=false`,
// repeatable flags, flags before or after positionals, `--` ends flags.
// Pure: it returns values or throws a UsageError worded as kubectl words it,
// never node:util parseArgs' "place it at the end of the command after '--'".

export interface FlagSpec {
  name: string;
  short?: string;
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Placeholder in usage text (FILE, N, ...); strings only. */
  value?: string;
  help: string;
  /** A deprecated spelling: its value lands in this flag's name, with a warning. */
  aliasOf?: string;
  /** Hidden from usage and completion (deprecated aliases). */
  hidden?: boolean;
  /** The verbs it applies to (all when absent): given with another verb, it is refused, never ignored. */
  verbs?: string[];
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface ParsedFlags {
  values: FlagValues;
  positionals: string[];
  /** Deprecation notes for the caller to print on stderr. */
  warnings: string[];
}

/** A mistake on the command line: printed as `error: <message>` plus where to find usage; exit 1, as kubectl. */
export class UsageError extends Error {}

const TRUE = new Set(['true', '1', 't', 'T', 'TRUE', 'True']);
const FALSE = new Set(['false', '0', 'f', 'F', 'FALSE', 'False']);

function parseBool(flag: FlagSpec, text: string): boolean {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new UsageError(`invalid argument "${text}" for "${display(flag)}" flag: want true or false`);
}

function display(flag: FlagSpec): string {
  return flag.short ? `-${flag.short}, --${flag.name}` : `--${flag.name}`;
}

function store(values: FlagValues, flag: FlagSpec, value: string | boolean): void {
  const key = flag.aliasOf ?? flag.name;
  if (flag.multiple && typeof value === 'string') {
    const list = values[key];
    values[key] = Array.isArray(list) ? [...list, value] : [value];
  } else {
    values[key] = value;
  }
}

export function parseFlags(specs: readonly FlagSpec[], argv: readonly string[]): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const values: FlagValues = {};
  const positionals: string[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = long ? body.indexOf('=') : -1;
    let flag: FlagSpec | undefined;
    let inline: string | undefined;
    if (long) {
      flag = byName.get(eq >= 0 ? body.slice(0, eq) : body);
      if (!flag) throw new UsageError(`unknown flag: --${eq >= 0 ? body.slice(0, eq) : body}`);
      if (eq >= 0) inline = body.slice(eq + 1);
    } else {
      flag = byShort.get(body[0] ?? '');
      if (!flag) throw new UsageError(`unknown shorthand flag: '${body[0] ?? ''}' in ${arg}`);
      // -ojson and -o=json, as pflag reads them.
      if (body.length > 1) inline = body[1] === '=' ? body.slice(2) : body.slice(1);
    }
    if (flag.aliasOf) warnings.push(`Flag --${flag.name} has been deprecated, use --${flag.aliasOf} instead`);
    if (flag.type === 'boolean') {
      store(values, flag, inline === undefined ? true : parseBool(flag, inline));
      continue;
    }
    if (inline === undefined) {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`flag needs an argument: ${long ? `--${flag.name}` : `'${flag.short}' in -${flag.short}`}`);
      inline = next;
      i++;
    }
    store(values, flag, inline);
  }
  return { values, positionals, warnings };
}
