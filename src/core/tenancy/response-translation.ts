// Responses made of objects: lists, watch events and Tables. Objects that are
// not the tenant's are dropped (defence in depth: the request already asked
// only for the tenant's). Like object-translation.ts these mutate their input.
import { isObject, type KubeList, type KubeObject, type Status, type WatchEvent } from '../types.ts';
import { apiVersionToTenant } from './kind-treatment.ts';
import { toTenantObject } from './object-translation.ts';
import { scrubNames, toTenantStatus } from './status-translation.ts';
import type { TenantContext } from './tenant-context.ts';
import { heldRowCells } from '../propagation/held-table.ts';

export function toTenantList(ctx: TenantContext, list: KubeList): KubeList {
  const before = list.items.length;
  list.items = list.items.map((item) => toTenantItem(ctx, list, item)).filter((item) => item !== undefined);
  list.apiVersion = apiVersionToTenant(ctx, list.apiVersion) ?? list.apiVersion;
  // A count of upstream items we did not show would be wrong (and would leak that they exist).
  if (list.items.length !== before) delete list.metadata.remainingItemCount;
  return list;
}

/**
 * A real apiserver sends list items without kind and apiVersion: the kind's
 * own translation (RBAC subjects and roleRefs, ClusterRole label keys...) needs
 * them, so they are lent from the list for the translation and taken back.
 */
function toTenantItem(ctx: TenantContext, list: KubeList, item: KubeObject): KubeObject | undefined {
  const lend = item.kind === undefined && typeof list.kind === 'string' && list.kind.endsWith('List') && typeof list.apiVersion === 'string';
  if (!lend) return toTenantObject(ctx, item);
  item.kind = list.kind.slice(0, -'List'.length);
  item.apiVersion = list.apiVersion;
  const view = toTenantObject(ctx, item);
  if (view) { delete view.kind; delete view.apiVersion; }
  return view;
}

/**
 * One watch event, or undefined when it must not reach the tenant. BOOKMARKs
 * carry only a resourceVersion (and annotations) and pass with their apiVersion
 * translated; ERROR events carry a Status.
 */
export function toTenantWatchEvent(ctx: TenantContext, event: WatchEvent): WatchEvent | undefined {
  if (event.type === 'ERROR') return { type: 'ERROR', object: toTenantStatus(ctx.id, event.object as unknown as Status, ctx.isTenantId) as unknown as KubeObject };
  if (event.type === 'BOOKMARK') {
    const object = event.object;
    if (object.apiVersion !== undefined) object.apiVersion = apiVersionToTenant(ctx, object.apiVersion) ?? object.apiVersion;
    return event;
  }
  const object = toTenantObject(ctx, event.object);
  return object === undefined ? undefined : { type: event.type, object };
}

export interface TableRow { cells: unknown[]; object?: unknown; [extra: string]: unknown }
export interface Table extends KubeObject { columnDefinitions?: { name: string; format?: string }[]; rows?: TableRow[] }

/**
 * meta.k8s.io Table: rows whose object is not the tenant's are dropped; the
 * `name` column takes the translated name; other string cells (roleRefs such
 * as `ClusterRole/<id>-view`, `<id>-ns/sa`, events' objects) are scrubbed.
 */
export function toTenantTable(ctx: TenantContext, table: Table): Table {
  const nameColumn = (table.columnDefinitions ?? []).findIndex((c) => c.format === 'name');
  const rows: TableRow[] = [];
  for (const row of table.rows ?? []) {
    let named = false;
    if (isObject(row.object)) {
      // Before translation strips the held marks: they say which cells to print again (held-table.ts).
      row.cells = heldRowCells(table.columnDefinitions ?? [], row.cells, row.object as KubeObject);
      const object = toTenantObject(ctx, row.object as KubeObject);
      if (object === undefined) continue;
      row.object = object;
      if (nameColumn >= 0 && object.metadata.name !== undefined) { row.cells[nameColumn] = object.metadata.name; named = true; }
    }
    // Without row.object (includeObject=None) the name cell is scrubbed like the rest.
    row.cells = row.cells.map((cell, i) => (typeof cell === 'string' && !(named && i === nameColumn) ? scrubNames(ctx.id, cell, ctx.isTenantId) : cell));
    rows.push(row);
  }
  table.rows = rows;
  return table;
}
