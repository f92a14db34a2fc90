// Host-issued ServiceAccount tokens never reach a tenant (ADR 0028).
//
// A tenant's ServiceAccount is a real host ServiceAccount (`<id>-<ns>/<name>`),
// and on a 1.20 host the token controller writes a host-signed token into every
// Secret of type kubernetes.io/service-account-token in its namespace: the ones
// it makes for each ServiceAccount, and any a tenant creates with the
// `kubernetes.io/service-account.name` annotation. That token authenticates to
// the HOST apiserver, past the gateway's guard. So:
// - on the way out, every object shaped like such a Secret loses `token` and
//   `ca.crt` (the host's CA), and `namespace` is rewritten to the tenant's. The
//   test is on the object's shape, not its kind, because list items carry no
//   kind on a real apiserver, and a Table row's object may be any kind;
// - on the way in, a tenant may not write such a Secret at all (create, update,
//   patch, apply naming the type). kube forbids changing a Secret's type (1.20
//   answers `type: Invalid value: ...: field is immutable`), so a Secret written
//   as Opaque can never become one later. Tenants get tokens from TokenRequest
//   (`kubectl create token`), answered by the gateway with Warren's own keys.
import { invalid, type ApiError } from '../api-error.ts';
import { isObject, type KubeObject } from '../types.ts';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';

/** Keys of a token Secret's data that hold host material. */
const HOST_KEYS = ['token', 'ca.crt'] as const;

/** The object is a ServiceAccount token Secret (by shape: its `type`). */
export function isServiceAccountTokenSecret(obj: Record<string, unknown>): boolean {
  return obj.type === SERVICE_ACCOUNT_TOKEN_TYPE;
}

/**
 * Removes host material from a token Secret, in place; `tenantNamespace` is
 * the namespace in tenant terms (already translated). Anything else is left alone.
 */
export function redactServiceAccountToken(obj: KubeObject, tenantNamespace: string | undefined): void {
  if (!isServiceAccountTokenSecret(obj)) return;
  // stringData is write-only in kube, but an upstream that echoed it must not leak through it either.
  for (const field of ['data', 'stringData'] as const) {
    const data = obj[field];
    if (!isObject(data)) continue;
    for (const key of HOST_KEYS) delete data[key];
    if ('namespace' in data) {
      if (tenantNamespace === undefined) delete data.namespace;
      else data.namespace = field === 'data' ? Buffer.from(tenantNamespace).toString('base64') : tenantNamespace;
    }
  }
}

/** 422 for a tenant body that writes a ServiceAccount token Secret; null otherwise. */
export function serviceAccountTokenSecretRefusal(obj: KubeObject): ApiError | null {
  if (!isServiceAccountTokenSecret(obj)) return null;
  return invalid({ kind: 'Secret', name: obj.metadata.name ?? obj.metadata.generateName ?? '' }, [{
    type: 'FieldValueForbidden',
    field: 'type',
    message: `Forbidden: Secrets of type ${SERVICE_ACCOUNT_TOKEN_TYPE} are issued by the cluster, not written by tenants; request a token with TokenRequest (kubectl create token)`,
  }]);
}
