// What a command gets from the composition root: where to write, the
// environment, and its parsed flags. Commands never touch process.stdout or
// process.env themselves, so tests run them in-process through main().
import type { FlagValues } from './flag-parser.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

export interface CommandInput {
  io: CliIo;
  values: FlagValues;
  positionals: string[];
}

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
  };
}

/** A flag's value as one string (the last one given), or undefined. */
export function str(values: FlagValues, name: string): string | undefined {
  const v = values[name];
  if (Array.isArray(v)) return v[v.length - 1];
  return typeof v === 'string' ? v : undefined;
}

export function list(values: FlagValues, name: string): string[] {
  const v = values[name];
  if (Array.isArray(v)) return v;
  return typeof v === 'string' ? [v] : [];
}

export function bool(values: FlagValues, name: string): boolean {
  return values[name] === true;
}
