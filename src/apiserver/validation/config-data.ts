// ConfigMap and Secret: data key syntax, the 1 MiB size cap, `immutable`, and
// the keys each Secret type requires (ValidateSecret, light).
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { FIELD_IMMUTABLE, forbidden, invalidValue, key, required, tooLong } from './field-errors.ts';
import { isConfigMapKey } from './name-rules.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

export const MAX_DATA_SIZE = 1024 * 1024;

function validateKeys(data: Obj, base: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const k of Object.keys(data)) for (const msg of isConfigMapKey(k)) causes.push(invalidValue(key(base, k), k, msg));
  return causes;
}

export function validateConfigMap(obj: Obj): StatusCause[] {
  const data = rec(obj.data);
  const binary = rec(obj.binaryData);
  const causes = validateKeys(data, 'data');
  for (const k of Object.keys(data)) {
    if (k in binary) causes.push(invalidValue(key('data', k), k, 'duplicate of key present in binaryData'));
  }
  causes.push(...validateKeys(binary, 'binaryData'));
  let size = 0;
  for (const v of Object.values(data)) size += String(v).length;
  // binaryData travels base64-encoded: count decoded bytes.
  for (const v of Object.values(binary)) size += Math.floor((String(v).replace(/=+$/, '').length * 3) / 4);
  if (size > MAX_DATA_SIZE) causes.push(tooLong('', MAX_DATA_SIZE));
  return causes;
}

/** Secret keys: `data` plus `stringData`, which the server merges into data before validating. */
function secretKeys(obj: Obj): Set<string> {
  return new Set([...Object.keys(rec(obj.data)), ...Object.keys(rec(obj.stringData))]);
}

export function validateSecret(obj: Obj): StatusCause[] {
  const causes = [...validateKeys(rec(obj.data), 'data'), ...validateKeys(rec(obj.stringData), 'data')];
  const keys = secretKeys(obj);
  const type = typeof obj.type === 'string' ? obj.type : 'Opaque';
  const annotations = rec(rec(obj.metadata).annotations);
  switch (type) {
    case 'kubernetes.io/service-account-token':
      if (!annotations['kubernetes.io/service-account.name']) causes.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    case 'kubernetes.io/dockercfg':
      if (!keys.has('.dockercfg')) causes.push(required(key('data', '.dockercfg')));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!keys.has('.dockerconfigjson')) causes.push(required(key('data', '.dockerconfigjson')));
      break;
    case 'kubernetes.io/basic-auth':
      if (!keys.has('username') && !keys.has('password')) causes.push(required(key('data', 'username')), required(key('data', 'password')));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!keys.has('ssh-privatekey')) causes.push(required(key('data', 'ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!keys.has('tls.crt')) causes.push(required(key('data', 'tls.crt')));
      if (!keys.has('tls.key')) causes.push(required(key('data', 'tls.key')));
      break;
    default:
  }
  let size = 0;
  for (const v of Object.values(rec(obj.data))) size += Math.floor((String(v).replace(/=+$/, '').length * 3) / 4);
  for (const v of Object.values(rec(obj.stringData))) size += String(v).length;
  if (size > MAX_DATA_SIZE) causes.push(tooLong('data', MAX_DATA_SIZE));
  return causes;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Shared by ConfigMap and Secret: `immutable: true` freezes data and cannot be undone. */
export function validateImmutableDataUpdate(obj: Obj, old: Obj, dataFields: string[]): StatusCause[] {
  const causes: StatusCause[] = [];
  if (old.immutable === true) {
    if (obj.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
    for (const f of dataFields) {
      if (!same(obj[f], old[f])) causes.push(forbidden(f, 'field is immutable when `immutable` is set'));
    }
  }
  return causes;
}

export function validateSecretUpdate(obj: Obj, old: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = obj.type ?? 'Opaque';
  if (type !== (old.type ?? 'Opaque')) causes.push(invalidValue('type', type, FIELD_IMMUTABLE));
  return [...causes, ...validateImmutableDataUpdate(obj, old, ['data'])];
}
