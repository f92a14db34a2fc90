// Builds the meta.k8s.io/v1 Table for a list or a single object. Every column
// (wide ones too) is sent; kubectl hides priority > 0 unless -o wide.
import type { KubeObject, ListMeta } from '../types.ts';
import { groupVersion, type ResourceDef } from '../resources/resource-def.ts';
import { crdTableColumns, type PrinterColumn } from './crd-columns.ts';
import { builtinPrinterFor } from './printers.ts';
import type { Printer, Table, TableRow } from './table-types.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  /** kube-apiserver's default is Metadata; kubectl asks for Object. */
  includeObject?: IncludeObject;
  now?: Date;
  listMeta?: ListMeta;
  /** A custom resource's additionalPrinterColumns (from its CRD version). */
  customColumns?: readonly PrinterColumn[];
}

/** The resource a table is for; kind and version name its rows' objects (every ResourceDef has them). */
export type TableDef = Pick<ResourceDef, 'group' | 'resource' | 'custom'> & Partial<Pick<ResourceDef, 'kind' | 'version'>>;

export function printerFor(def: Pick<ResourceDef, 'group' | 'resource' | 'custom'>, customColumns?: readonly PrinterColumn[]): Printer {
  return def.custom ? crdTableColumns(customColumns) : builtinPrinterFor(def);
}

/**
 * kube-apiserver encodes each row's object with its kind and apiVersion. Items
 * of a list (and of Warren's caches) carry neither on the wire, and kubectl
 * cannot decode a row object without them: `--sort-by` then printed an empty table.
 */
function rowObject(def: TableDef, obj: KubeObject, include: IncludeObject): unknown {
  if (include === 'Object') return def.kind && def.version ? { ...obj, apiVersion: groupVersion(def as Pick<ResourceDef, 'group' | 'version'>), kind: def.kind } : obj;
  if (include === 'Metadata') return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
  return undefined;
}

function listMetaOf(meta: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (meta?.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta?.continue) out.continue = meta.continue;
  if (meta?.remainingItemCount !== undefined) out.remainingItemCount = meta.remainingItemCount;
  return out;
}

export function toTable(def: TableDef, objects: readonly KubeObject[], opts: TableOptions = {}): Table {
  const printer = printerFor(def, opts.customColumns);
  const now = opts.now ?? new Date();
  const include = opts.includeObject ?? 'Metadata';
  const rows = objects.map((obj): TableRow => {
    const row: TableRow = { cells: printer.cells(obj, now) };
    const conditions = printer.conditions?.(obj);
    if (conditions) row.conditions = conditions;
    const object = rowObject(def, obj, include);
    if (object !== undefined) row.object = object;
    return row;
  });
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMetaOf(opts.listMeta), columnDefinitions: printer.columns, rows };
}
