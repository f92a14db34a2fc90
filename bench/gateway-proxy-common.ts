// Shared pieces of the gateway proxy benchmarks (not part of `npm test`):
// realistic tenant objects, the real core translation, timing helpers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeList, KubeObject, WatchEvent } from '../src/core/types.ts';
import type { TenantContext } from '../src/core/tenancy/tenant-context.ts';
import { toTenantList, toTenantWatchEvent } from '../src/core/tenancy/response-translation.ts';
import { toTenantStatus } from '../src/core/tenancy/status-translation.ts';
import { isObject, type Status } from '../src/core/types.ts';

export const TENANT = 'abc123';
export const ctx: TenantContext = { id: TENANT };

/** A ConfigMap as upstream holds it for the tenant: prefixed namespace, tenant label, managedFields. */
export function upstreamConfigMap(i: number, namespace = `${TENANT}-bench`): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${i}`,
      namespace,
      uid: `0b7c1d2e-${String(i).padStart(4, '0')}-4f5a-9b8c-7d6e5f4a3b2c`,
      resourceVersion: String(1000 + i),
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { app: 'bench', tier: 'backend', 'tenancy.warren.dev/tenant': TENANT },
      managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:config.yaml': {} } } }],
    },
    data: { 'config.yaml': `replicas: 3\nimage: nginx:1.27\nindex: ${i}\n`.repeat(4) },
  };
}

/** What the lead's chain would pass to sendTranslatedJson for a LIST, a Status or an object. */
export function translateBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  if (body.kind === 'Status') return toTenantStatus(TENANT, body as unknown as Status);
  if (Array.isArray(body.items)) return toTenantList(ctx, body as unknown as KubeList);
  return body;
}

export const translateEvent = (event: WatchEvent): WatchEvent | undefined => toTenantWatchEvent(ctx, event);

export async function listen(server: http.Server | import('node:https').Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
