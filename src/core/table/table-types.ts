// meta.k8s.io/v1 Table shapes, and the printer contract each kind implements.
import type { KubeObject, ListMeta } from '../types.ts';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed';
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface Printer {
  columns: TableColumnDefinition[];
  /** Cells for every column (wide ones included: the server always sends them). */
  cells(obj: KubeObject, now: Date): unknown[];
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
}

export const NAME_DESCRIPTION = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

export const CREATION_TIMESTAMP_DESCRIPTION = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** Column shorthand: col('Ready', 'string', 'desc', 1). */
export function col(name: string, type: string, description: string, priority = 0, format = ''): TableColumnDefinition {
  return { name, type, format, description, priority };
}

export const NAME_COLUMN = col('Name', 'string', NAME_DESCRIPTION, 0, 'name');
export const AGE_COLUMN = col('Age', 'string', CREATION_TIMESTAMP_DESCRIPTION);
export const CONTAINERS_COLUMN = col('Containers', 'string', 'Names of each container in the template.', 1);
export const IMAGES_COLUMN = col('Images', 'string', 'Images referenced by each container in the template.', 1);
