// The Pod Security Standards' restricted checks ("latest"), on top of baseline.
// Some replace a baseline check (overrides): restricted volume types cover
// hostPath, its capabilities and seccomp rules are stricter versions of
// baseline's. Windows pods (spec.os.name=windows) are exempt from the
// Linux-only ones, as in kube since 1.25.
import { addedCapabilities, type PodCheck } from './baseline-checks.ts';
import { containersPhrase, obj, podAndContainersPhrase, pluralize, quoteAll, str, type ContainerView, type PodView } from './pod-view.ts';

const ALLOWED_VOLUME_SOURCES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

const volumeTypes: PodCheck = {
  id: 'restrictedVolumes',
  level: 'restricted',
  overrides: ['hostPathVolumes'],
  check(pod) {
    const names: string[] = [];
    const types = new Set<string>();
    for (const v of pod.volumes) {
      const sources = Object.keys(v).filter((k) => k !== 'name' && v[k] !== null && v[k] !== undefined);
      const bad = sources.filter((k) => !ALLOWED_VOLUME_SOURCES.has(k));
      if (bad.length) names.push(str(v.name));
      for (const k of bad) types.add(k);
    }
    if (!names.length) return undefined;
    const verb = names.length === 1 ? 'uses' : 'use';
    return {
      reason: 'restricted volume types',
      detail: `${pluralize('volume', 'volumes', names.length)} ${quoteAll(names)} ${verb} ${pluralize('restricted volume type', 'restricted volume types', types.size)} ${quoteAll([...types])}`,
    };
  },
};

const privilegeEscalation: PodCheck = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  check(pod) {
    if (pod.isWindows) return undefined;
    const names = pod.containers.filter((c) => c.securityContext.allowPrivilegeEscalation !== false).map((c) => c.name);
    return names.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(names)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
  },
};

/** A pod-level setting that every container inherits unless it sets its own (runAsNonRoot, seccompProfile). */
function inherited<T>(pod: PodView, read: (sc: Record<string, unknown>) => T | undefined): { onPod: T | undefined; perContainer: Array<[ContainerView, T | undefined]> } {
  return { onPod: read(pod.securityContext), perContainer: pod.containers.map((c) => [c, read(c.securityContext)]) };
}

const runAsNonRoot: PodCheck = {
  id: 'runAsNonRoot',
  level: 'restricted',
  check(pod) {
    const { onPod, perContainer } = inherited(pod, (sc) => (typeof sc.runAsNonRoot === 'boolean' ? sc.runAsNonRoot : undefined));
    const parts: string[] = [];
    if (onPod === false) parts.push('pod must not set securityContext.runAsNonRoot=false');
    const explicitFalse = perContainer.filter(([, v]) => v === false).map(([c]) => c.name);
    if (explicitFalse.length) parts.push(`${containersPhrase(explicitFalse)} must not set securityContext.runAsNonRoot=false`);
    const unset = perContainer.filter(([, v]) => v === undefined).map(([c]) => c.name);
    if (onPod === undefined && unset.length) parts.push(`pod or ${containersPhrase(unset)} must set securityContext.runAsNonRoot=true`);
    return parts.length ? { reason: 'runAsNonRoot != true', detail: parts.join('; ') } : undefined;
  },
};

const runAsUser: PodCheck = {
  id: 'runAsUser',
  level: 'restricted',
  check(pod) {
    const onPod = pod.securityContext.runAsUser === 0;
    const names = pod.containers.filter((c) => c.securityContext.runAsUser === 0).map((c) => c.name);
    if (!onPod && !names.length) return undefined;
    return { reason: 'runAsUser=0', detail: `${podAndContainersPhrase(onPod, names)} must not set runAsUser=0` };
  },
};

const seccompRestricted: PodCheck = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  overrides: ['seccompProfile_baseline'],
  check(pod) {
    if (pod.isWindows) return undefined;
    const { onPod, perContainer } = inherited(pod, (sc) => {
      const type = obj(sc.seccompProfile).type;
      return type === undefined || type === null ? undefined : str(type) || JSON.stringify(type);
    });
    const good = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
    const parts: string[] = [];
    if (onPod !== undefined && !good(onPod)) parts.push(`pod must not set securityContext.seccompProfile.type to ${JSON.stringify(onPod)}`);
    const badSet = perContainer.filter(([, t]) => t !== undefined && !good(t));
    if (badSet.length) {
      parts.push(`${containersPhrase(badSet.map(([c]) => c.name))} must not set securityContext.seccompProfile.type to ${quoteAll([...new Set(badSet.map(([, t]) => t ?? ''))])}`);
    }
    const unset = perContainer.filter(([, t]) => t === undefined).map(([c]) => c.name);
    if (onPod === undefined && unset.length) {
      parts.push(`pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
    }
    return parts.length ? { reason: 'seccompProfile', detail: parts.join('; ') } : undefined;
  },
};

const capabilitiesRestricted: PodCheck = {
  id: 'capabilities_restricted',
  level: 'restricted',
  overrides: ['capabilities_baseline'],
  check(pod) {
    if (pod.isWindows) return undefined;
    const noDrop: string[] = [];
    const badAdd: string[] = [];
    const added = new Set<string>();
    for (const c of pod.containers) {
      const drop = dropped(c);
      if (!drop.includes('ALL')) noDrop.push(c.name);
      const bad = addedCapabilities(c.securityContext).filter((cap) => cap !== 'NET_BIND_SERVICE');
      if (bad.length) badAdd.push(c.name);
      for (const cap of bad) added.add(cap);
    }
    const parts: string[] = [];
    if (noDrop.length) parts.push(`${containersPhrase(noDrop)} must set securityContext.capabilities.drop=["ALL"]`);
    if (badAdd.length) parts.push(`${containersPhrase(badAdd)} must not include ${quoteAll([...added].sort())} in securityContext.capabilities.add`);
    return parts.length ? { reason: 'unrestricted capabilities', detail: parts.join('; ') } : undefined;
  },
};

function dropped(c: ContainerView): string[] {
  const drop = obj(c.securityContext.capabilities).drop;
  return Array.isArray(drop) ? drop.filter((v): v is string => typeof v === 'string') : [];
}

export const RESTRICTED_CHECKS: readonly PodCheck[] = [volumeTypes, privilegeEscalation, runAsNonRoot, runAsUser, seccompRestricted, capabilitiesRestricted];
