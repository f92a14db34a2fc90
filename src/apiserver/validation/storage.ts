// PersistentVolumeClaim and StorageClass checks.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { forbidden, invalidValue, key, notSupported, required } from './field-errors.ts';
import { isQualifiedName } from './name-rules.ts';
import { quantityNumber } from '../../core/quantity.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const RECLAIM = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

export function validatePersistentVolumeClaim(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) causes.push(required('spec.accessModes', 'at least 1 access mode is required'));
  for (const m of modes) if (!ACCESS_MODES.includes(String(m))) causes.push(notSupported('spec.accessModes', m, ACCESS_MODES));
  const storage = rec(rec(spec.resources).requests).storage;
  const at = key('spec.resources', 'storage');
  if (storage === undefined) causes.push(required(at));
  else {
    const q = quantityNumber(String(storage));
    if (q === undefined) causes.push(invalidValue(at, String(storage), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    else if (q <= 0) causes.push(invalidValue(at, String(storage), 'must be greater than zero'));
  }
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(String(spec.volumeMode))) {
    causes.push(notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  }
  return causes;
}

export function validateStorageClass(obj: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const provisioner = obj.provisioner;
  if (typeof provisioner !== 'string' || provisioner === '') causes.push(required('provisioner'));
  else for (const msg of isQualifiedName(provisioner.toLowerCase())) causes.push(invalidValue('provisioner', provisioner, msg));
  if (obj.reclaimPolicy !== undefined && !RECLAIM.includes(String(obj.reclaimPolicy))) causes.push(notSupported('reclaimPolicy', obj.reclaimPolicy, RECLAIM));
  if (obj.volumeBindingMode !== undefined && !BINDING_MODES.includes(String(obj.volumeBindingMode))) {
    causes.push(notSupported('volumeBindingMode', obj.volumeBindingMode, BINDING_MODES));
  }
  return causes;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function validateStorageClassUpdate(obj: Obj, old: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!same(obj.parameters, old.parameters)) causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner) causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (!same(obj.reclaimPolicy, old.reclaimPolicy)) causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (!same(obj.volumeBindingMode, old.volumeBindingMode)) causes.push(forbidden('volumeBindingMode', 'field is immutable'));
  return causes;
}
