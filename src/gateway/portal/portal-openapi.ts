// The provisioning API as an OpenAPI 3.0 document, served at
// GET /warren/v1/openapi.json (platform admins only, as the API itself). The
// TenantSpec schema is the CRD's own (crds/), so the document cannot drift
// from what the API accepts; the x-kubernetes-* extensions are dropped.
import { tenantSchema } from '../../tenants/tenant-crd.ts';

export const PORTAL_OPENAPI_PATH = '/warren/v1/openapi.json';

function withoutKubeExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKubeExtensions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !k.startsWith('x-kubernetes-')).map(([k, v]) => [k, withoutKubeExtensions(v)]));
}

const json = (schema: string): Record<string, unknown> => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
const status = (description: string): Record<string, unknown> => ({ description, ...json('Status') });
const NAME = { name: 'name', in: 'path', required: true, description: 'Tenant name: a DNS-1123 label', schema: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 } };
const ERRORS = {
  401: status('Not a platform admin (client certificate with O=warren:platform-admins, or a token from `warren admin token`)'),
};

export function portalOpenApi(version: string): Record<string, unknown> {
  const spec = withoutKubeExtensions((tenantSchema().properties as Record<string, unknown>).spec);
  return {
    openapi: '3.0.3',
    info: { title: 'Warren provisioning API', version, description: 'Tenants for portals and platform admins. Errors are Kubernetes Status objects.' },
    paths: {
      '/warren/v1/tenants': {
        get: {
          operationId: 'listTenants',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 10000 }, description: 'At most this many items; metadata.continue fetches the rest' },
            { name: 'continue', in: 'query', schema: { type: 'string' }, description: 'metadata.continue of the previous page' },
          ],
          responses: { 200: { description: 'One page of tenants', ...json('TenantList') }, 400: status('Bad limit or continue'), 410: status('The continue token expired: list again from the start'), ...ERRORS },
        },
      },
      '/warren/v1/tenants/{name}': {
        parameters: [NAME],
        get: {
          operationId: 'getTenant',
          responses: { 200: { description: 'The tenant; the ETag header is its resourceVersion', ...json('Tenant') }, 404: status('No such tenant'), ...ERRORS },
        },
        put: {
          operationId: 'putTenant',
          description: 'Create the tenant, or make its spec this one. Idempotent: the same PUT again changes nothing. Answers once the tenant is Ready, with its first admin\'s kubeconfig.',
          parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'ETag ("<resourceVersion>") of the version this change is based on: 409 if the tenant moved on' }],
          requestBody: { required: true, ...json('TenantPut') },
          responses: {
            200: { description: 'Updated or unchanged, and Ready', ...json('Tenant') },
            201: { description: 'Created, and Ready', ...json('Tenant') },
            400: status('Unknown field (strict decoding), or a malformed body'),
            404: status('If-Match given and no such tenant'),
            409: status('If-Match or metadata.resourceVersion does not match, or the tenant is being deleted'),
            422: status('Invalid name or spec; nothing was written'),
            504: status('Not Ready in time; PUT again to keep waiting'),
            ...ERRORS,
          },
        },
        delete: {
          operationId: 'deleteTenant',
          parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'Delete only this version' }],
          responses: { 202: { description: 'Deletion started', ...json('Tenant') }, 404: status('No such tenant'), 409: status('If-Match does not match'), ...ERRORS },
        },
      },
    },
    components: {
      schemas: {
        TenantSpec: spec,
        TenantPut: {
          type: 'object', additionalProperties: false,
          properties: {
            apiVersion: { type: 'string', enum: ['tenancy.warren.dev/v1alpha1'] },
            kind: { type: 'string', enum: ['Tenant'] },
            metadata: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, resourceVersion: { type: 'string' } } },
            spec: { $ref: '#/components/schemas/TenantSpec' },
          },
        },
        Tenant: {
          type: 'object',
          required: ['name', 'phase', 'resourceVersion'],
          properties: {
            name: { type: 'string' },
            id: { type: 'string', description: 'The 6-character tenant id, once assigned' },
            phase: { type: 'string', enum: ['Pending', 'Ready', 'Suspended', 'Terminating'] },
            resourceVersion: { type: 'string' },
            spec: { $ref: '#/components/schemas/TenantSpec' },
            conditions: { type: 'array', items: { type: 'object' } },
            kubeconfig: { type: 'string', description: 'PUT only: the first admin\'s kubeconfig' },
          },
        },
        TenantList: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['TenantList'] },
            metadata: { type: 'object', properties: { continue: { type: 'string' }, resourceVersion: { type: 'string' } } },
            items: { type: 'array', items: { $ref: '#/components/schemas/Tenant' } },
          },
        },
        Status: {
          type: 'object',
          description: 'A Kubernetes Status (kind: Status, status: Failure)',
          properties: { kind: { type: 'string' }, apiVersion: { type: 'string' }, status: { type: 'string' }, message: { type: 'string' }, reason: { type: 'string' }, code: { type: 'integer' }, details: { type: 'object' } },
        },
      },
    },
  };
}
