// Names a pod spec refers to, as kube's podutil.VisitPodSecretNames and
// VisitPodConfigmapNames walk them (Karmada reuses both, lifted), plus
// Karmada's own ServiceAccount and PVC rules (helper.GetDependenciesFromPodTemplate).
import { allContainers } from '../workload/pod-template.ts';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Json : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface PodReferences {
  configMaps: Set<string>;
  secrets: Set<string>;
  serviceAccounts: Set<string>;
  persistentVolumeClaims: Set<string>;
}

// Volume sources whose secretRef names a Secret (VisitPodSecretNames).
const SECRET_REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

export function podReferences(spec: Json): PodReferences {
  const refs: PodReferences = { configMaps: new Set(), secrets: new Set(), serviceAccounts: new Set(), persistentVolumeClaims: new Set() };
  const add = (set: Set<string>, name: string): void => { if (name) set.add(name); };
  for (const s of list(spec.imagePullSecrets)) add(refs.secrets, str(rec(s).name));
  for (const c of allContainers(spec)) {
    for (const from of list(c.envFrom)) {
      add(refs.configMaps, str(rec(rec(from).configMapRef).name));
      add(refs.secrets, str(rec(rec(from).secretRef).name));
    }
    for (const env of list(c.env)) {
      const valueFrom = rec(rec(env).valueFrom);
      add(refs.configMaps, str(rec(valueFrom.configMapKeyRef).name));
      add(refs.secrets, str(rec(valueFrom.secretKeyRef).name));
    }
  }
  for (const v of list(spec.volumes)) {
    const volume = rec(v);
    add(refs.configMaps, str(rec(volume.configMap).name));
    add(refs.secrets, str(rec(volume.secret).secretName));
    add(refs.secrets, str(rec(volume.azureFile).secretName));
    add(refs.secrets, str(rec(rec(volume.csi).nodePublishSecretRef).name));
    for (const key of SECRET_REF_VOLUMES) add(refs.secrets, str(rec(rec(volume[key]).secretRef).name));
    for (const source of list(rec(volume.projected).sources)) {
      add(refs.configMaps, str(rec(rec(source).configMap).name));
      add(refs.secrets, str(rec(rec(source).secret).name));
    }
    add(refs.persistentVolumeClaims, str(rec(volume.persistentVolumeClaim).claimName));
  }
  // Karmada leaves the namespace's "default" ServiceAccount alone: every member namespace has one.
  const sa = str(spec.serviceAccountName);
  if (sa && sa !== 'default') refs.serviceAccounts.add(sa);
  return refs;
}
