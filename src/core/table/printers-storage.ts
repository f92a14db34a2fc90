// PersistentVolumeClaims, PersistentVolumes and StorageClasses.
import { ageSince } from './human-duration.ts';
import { accessModes, rec, str } from './cell-format.ts';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table-types.ts';

type Obj = Record<string, unknown>;

const VOLUME_MODE = col('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', 1);
const VAC = col('VolumeAttributesClass', 'string', 'VolumeAttributesClass is the name of the VolumeAttributesClass the volume uses.');

const className = (o: { metadata: { annotations?: Record<string, string> } }, spec: Obj): string =>
  o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? str(spec.storageClassName);

export const pvcPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has.'),
    col('StorageClass', 'string', 'StorageClass of the pvc'), VAC, AGE_COLUMN, VOLUME_MODE,
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    const phase = o.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
    const bound = str(spec.volumeName) !== '';
    return [o.metadata.name ?? '', phase, str(spec.volumeName), bound ? String(rec(status.capacity).storage ?? '0') : '', bound ? accessModes(status.accessModes) : '',
      className(o, spec), str(spec.volumeAttributesClassName) || '<unset>', ageSince(o.metadata.creationTimestamp, now), str(spec.volumeMode) || '<unset>'];
  },
};

export const pvPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Capacity', 'string', 'capacity is the description of the persistent volume\'s resources and capacity.'),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    col('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.'),
    col('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    col('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.'),
    col('StorageClass', 'string', 'StorageClass of the pv'), VAC,
    col('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
    AGE_COLUMN, VOLUME_MODE,
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const claim = rec(spec.claimRef);
    const claimText = spec.claimRef ? `${str(claim.namespace)}/${str(claim.name)}` : '';
    const phase = o.metadata.deletionTimestamp ? 'Terminating' : str(rec(o.status).phase);
    return [o.metadata.name ?? '', String(rec(spec.capacity).storage ?? '0'), accessModes(spec.accessModes), str(spec.persistentVolumeReclaimPolicy), phase, claimText,
      className(o, spec), str(spec.volumeAttributesClassName) || '<unset>', str(rec(o.status).reason), ageSince(o.metadata.creationTimestamp, now), str(spec.volumeMode) || '<unset>'];
  },
};

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const storageClassPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    col('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
    col('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.'),
    col('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
  cells(o, now) {
    const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => o.metadata.annotations?.[a] === 'true');
    return [`${o.metadata.name ?? ''}${isDefault ? ' (default)' : ''}`, str(o.provisioner), str(o.reclaimPolicy) || 'Delete', str(o.volumeBindingMode) || 'Immediate',
      o.allowVolumeExpansion === true, ageSince(o.metadata.creationTimestamp, now)];
  },
};
