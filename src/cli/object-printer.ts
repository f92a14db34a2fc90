// How `warren ... list|get` print objects, as `kubectl get` does: aligned columns,
// -o wide with more columns, -o name, -o json|yaml (a List for several, the object
// alone when one was asked for by name), --no-headers. Pure; each command gives
// its columns.
import { stringify } from 'yaml';

export const OUTPUTS = ['wide', 'json', 'yaml', 'name'] as const;
export type Output = (typeof OUTPUTS)[number] | 'table';

export function parseOutput(text: string | undefined): Output {
  if (text === undefined) return 'table';
  if ((OUTPUTS as readonly string[]).includes(text)) return text as Output;
  throw new Error(`unable to match a printer suitable for the output format "${text}", allowed formats are: ${OUTPUTS.join(',')}`);
}

/** kubectl's table layout, line by line: each column padded to its widest cell plus three spaces, the last one not padded. */
export function alignedLines(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join('').trimEnd());
}

/** The same as one text, each line ended; nothing for no rows. */
export function alignColumns(rows: string[][]): string {
  return rows.length === 0 ? '' : `${alignedLines(rows).join('\n')}\n`;
}

/** One kind's columns: the plain table's, and what -o wide adds. */
export interface Columns<T> {
  header: string[];
  wideHeader: string[];
  cells(item: T, now: Date): string[];
  wideCells(item: T, now: Date): string[];
  /** `-o name`: `<resource>.<group>/<name>`. */
  nameOf(item: T): string;
}

export interface PrintOptions {
  output: Output;
  noHeaders: boolean;
  now: Date;
  /** One object asked for by name: json/yaml print it alone, not as a List. */
  single: boolean;
}

/**
 * Prints what `list`/`get` fetched as kubectl does: nothing to show in a table is one line on
 * stderr (kubectl's "No resources found"), anything else goes to stdout in the asked format.
 */
export function printObjects<T>(write: { out(text: string): void; err(text: string): void }, items: T[], columns: Columns<T>, options: PrintOptions & { empty: string }): number {
  if (items.length === 0 && (options.output === 'table' || options.output === 'wide')) write.err(`${options.empty}\n`);
  else write.out(formatObjects(items, columns, options));
  return 0;
}

export function formatObjects<T>(items: T[], columns: Columns<T>, options: PrintOptions): string {
  switch (options.output) {
    case 'name':
      return items.map((item) => `${columns.nameOf(item)}\n`).join('');
    case 'json':
    case 'yaml': {
      const value = options.single && items.length === 1 ? items[0] : { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
      return options.output === 'json' ? `${JSON.stringify(value, null, 4)}\n` : stringify(value);
    }
    default: {
      const wide = options.output === 'wide';
      const header = wide ? [...columns.header, ...columns.wideHeader] : columns.header;
      const rows = items.map((item) => (wide ? [...columns.cells(item, options.now), ...columns.wideCells(item, options.now)] : columns.cells(item, options.now)));
      return alignColumns(options.noHeaders ? rows : [header, ...rows]);
    }
  }
}
