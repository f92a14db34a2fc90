// Tables for custom resources: Name plus the CRD's additionalPrinterColumns
// (default: Age from .metadata.creationTimestamp), cells as apiextensions'
// table convertor computes them: the first JSONPath result, typed per column.
import type { KubeObject } from '../types.ts';
import { jsonPathValues } from './jsonpath.ts';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN, type Printer } from './table-types.ts';
import { ageSince } from './human-duration.ts';

/** A CRD's additionalPrinterColumns entry (fields optional, as they arrive from clients). */
export interface PrinterColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export const DEFAULT_PRINTER_COLUMNS: PrinterColumn[] = [
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: CREATION_TIMESTAMP_DESCRIPTION },
];

/** Go's fmt.Print of a decoded JSON value: maps as map[k:v], lists as [a b]. */
export function goPrint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, x]) => `${k}:${goPrint(x)}`).join(' ')}]`;
  }
  return String(v);
}

function cellFor(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'string': return typeof value === 'string' ? value : goPrint(value);
    case 'integer': return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      // apiextensions' table convertor: ConvertToHumanReadableDateType, i.e. an age ("5m").
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : ageSince(value, now);
    }
    default: return null;
  }
}

export function crdTableColumns(columns: readonly PrinterColumn[] | undefined): Printer {
  const cols = columns && columns.length > 0 ? columns : DEFAULT_PRINTER_COLUMNS;
  return {
    columns: [NAME_COLUMN, ...cols.map((c) => ({ name: c.name ?? '', type: c.type ?? 'string', format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 }))],
    cells(obj: KubeObject, now: Date = new Date()) {
      return [obj.metadata.name ?? '', ...cols.map((c) => {
        let values: unknown[];
        try {
          values = jsonPathValues(c.jsonPath ?? '', obj);
        } catch {
          return null;
        }
        return values.length === 0 ? null : cellFor(c.type ?? 'string', values[0], now);
      })];
    },
  };
}
