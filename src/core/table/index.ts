// Public surface of Table output for the HTTP layer.
export { toTable, printerFor, type IncludeObject, type TableOptions } from './to-table.ts';
export { crdTableColumns, type PrinterColumn } from './crd-columns.ts';
export { humanDuration } from './human-duration.ts';
export { jsonPathValues } from './jsonpath.ts';
export type { Table, TableColumnDefinition, TableRow, Printer } from './table-types.ts';
