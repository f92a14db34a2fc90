// One row per measured line, printed as a fixed-width table and written as
// Markdown (docs/benchmarks.md). A row with a goal carries its own verdict.
export interface Row {
  suite: string;
  metric: string;
  unit: string;
  embedded?: number;
  floor?: number;
  /** The floor served over TLS: what HTTPS alone costs (the embedded server always speaks HTTPS). */
  floorTls?: number;
  goal?: string;
  pass?: boolean;
}

export interface Report {
  rows: Row[];
  notes: string[];
}

export function fmt(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(value >= 1 ? 2 : 3);
}

const HEADERS = ['suite', 'metric', 'unit', 'embedded', 'floor (http)', 'floor (https)', 'goal', 'result'];

function cells(row: Row): string[] {
  return [row.suite, row.metric, row.unit, fmt(row.embedded), fmt(row.floor), fmt(row.floorTls), row.goal ?? '',
    row.pass === undefined ? '' : row.pass ? 'PASS' : 'FAIL'];
}

export function renderText(rows: readonly Row[]): string {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  const numeric = new Set([3, 4, 5]);
  const line = (r: string[]): string => r.map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)].join('\n');
}

export function renderMarkdown(rows: readonly Row[]): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => ([3, 4, 5].includes(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`),
  ].join('\n');
}
