// Table output (Accept: application/json;as=Table;g=meta.k8s.io;v=v1): picks
// the columns for the resource (built-in printers, or a CRD's
// additionalPrinterColumns) and lets table/ build the rows.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { badRequest } from '../../core/api-error.ts';
import type { Registry } from '../registry/registry.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import { toTable, type IncludeObject } from '../../core/table/index.ts';

export interface TablePrinter {
  toTable(def: ResourceDef, objects: KubeObject[], query: URLSearchParams, listMeta: object, omitHeaders?: boolean): object;
}

function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject') ?? 'Metadata';
  if (value !== 'None' && value !== 'Metadata' && value !== 'Object') {
    throw badRequest(`includeObject: Unsupported value: "${value}": supported values: "None", "Metadata", "Object"`);
  }
  return value;
}

export function createTablePrinter(registry: Registry): TablePrinter {
  return {
    toTable(def, objects, query, listMeta, omitHeaders = false) {
      let columns;
      if (def.custom) {
        const crd = registry.store.get({ resource: 'customresourcedefinitions.apiextensions.k8s.io', namespace: '', name: `${def.resource}.${def.group}` }) as CustomResourceDefinition | undefined;
        columns = crd?.spec.versions?.find((v) => v.name === def.version)?.additionalPrinterColumns;
      }
      const table = toTable(def, objects, { includeObject: includeObjectOf(query), now: new Date(), listMeta, customColumns: columns }) as { columnDefinitions?: unknown[] };
      if (omitHeaders) table.columnDefinitions = [];
      return table;
    },
  };
}
