// Filtering and sorting the console's tables (pure; runs in the browser).
// A filter matches any of the row's shown texts, case-insensitively; a sort
// is stable, numbers compare as numbers, and ties keep the name order.

export type SortDirection = 'ascending' | 'descending';

export interface TableQuery<Row> {
  filter: string;
  sortBy: keyof Row & string;
  direction: SortDirection;
}

function text(value: unknown): string {
  if (Array.isArray(value)) return value.map(text).join(' ');
  if (value && typeof value === 'object') return Object.values(value).map(text).join(' ');
  return value === undefined || value === null ? '' : String(value);
}

export function matchesFilter(row: object, filter: string): boolean {
  const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = text(row).toLowerCase();
  return words.every((w) => haystack.includes(w));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length - b.length || text(a).localeCompare(text(b));
  return text(a).localeCompare(text(b));
}

export function queryRows<Row extends object>(rows: readonly Row[], query: TableQuery<Row>): Row[] {
  const sign = query.direction === 'descending' ? -1 : 1;
  return rows
    .filter((r) => matchesFilter(r, query.filter))
    .map((row, index) => ({ row, index }))
    .sort((x, y) => sign * compare(x.row[query.sortBy], y.row[query.sortBy]) || x.index - y.index)
    .map((x) => x.row);
}

/** Clicking a column: the same column flips the direction, another starts ascending. */
export function toggleSort<Row>(query: TableQuery<Row>, column: keyof Row & string): TableQuery<Row> {
  if (query.sortBy === column) return { ...query, direction: query.direction === 'ascending' ? 'descending' : 'ascending' };
  return { ...query, sortBy: column, direction: 'ascending' };
}

/** "3d", "5h", "12m", "40s", as kubectl's AGE column. */
export function age(since: string, now: number): string {
  const at = Date.parse(since);
  if (!Number.isFinite(at)) return '';
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
