// A sortable, filterable table: column headers are buttons (keyboard and
// screen readers get them for free) and carry aria-sort; the filter and sort
// themselves are the pure table-query.ts.
import { queryRows, toggleSort, type TableQuery } from '../../src/console/view/table-query.ts';
import { h, type Child } from './dom.ts';

export interface Column<Row> {
  key: keyof Row & string;
  label: string;
  cell(row: Row): Child;
  sortable?: boolean;
}

export interface TableOptions<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  query: TableQuery<Row>;
  onQuery(query: TableQuery<Row>): void;
  rowAttrs?(row: Row): Record<string, string>;
  empty: string;
}

export function sortableTable<Row extends object>(options: TableOptions<Row>): HTMLElement {
  const { query } = options;
  const rows = queryRows(options.rows, query);
  const head = h('tr', {}, options.columns.map((col) => {
    const sorted = query.sortBy === col.key;
    const ariaSort = sorted ? query.direction : 'none';
    if (col.sortable === false) return h('th', { scope: 'col' }, col.label);
    return h('th', { scope: 'col', 'aria-sort': ariaSort },
      h('button', { type: 'button', class: 'sort', 'data-focus-key': `sort-${col.key}`, onclick: () => options.onQuery(toggleSort(query, col.key)) },
        col.label, h('span', { 'aria-hidden': 'true', class: 'sort-mark' }, sorted ? (query.direction === 'ascending' ? ' ▲' : ' ▼') : '')));
  }));
  const body = rows.length === 0
    ? [h('tr', {}, h('td', { colspan: options.columns.length, class: 'empty' }, options.empty))]
    : rows.map((row) => h('tr', options.rowAttrs?.(row) ?? {}, options.columns.map((col) => h('td', { 'data-label': col.label }, col.cell(row)))));
  return h('div', { class: 'table-wrap' },
    h('table', {}, h('caption', { class: 'visually-hidden' }, options.caption), h('thead', {}, head), h('tbody', {}, body)));
}
