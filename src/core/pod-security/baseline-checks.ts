// The Pod Security Standards' baseline checks (k8s.io/pod-security-admission
// policy, "latest"): each returns kube's forbidden reason and detail, or
// undefined when the pod passes. Reasons and details are kube's words, because
// they reach the user in the 403 message and in warnings.
import { containersPhrase, list, obj, podAndContainersPhrase, pluralize, quoteAll, str, type PodView } from './pod-view.ts';

export interface Violation {
  reason: string;
  detail: string;
}

export interface PodCheck {
  /** kube's check ID; checks are evaluated and reported in ID order. */
  id: string;
  level: 'baseline' | 'restricted';
  /** Baseline checks a restricted check replaces (e.g. its stricter capabilities rule). */
  overrides?: string[];
  check(pod: PodView): Violation | undefined;
}

const ALLOWED_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const ALLOWED_SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
const ALLOWED_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

const hostProcess: PodCheck = {
  id: 'windowsHostProcess',
  level: 'baseline',
  check(pod) {
    const onPod = obj(pod.securityContext.windowsOptions).hostProcess === true;
    const names = pod.containers.filter((c) => obj(c.securityContext.windowsOptions).hostProcess === true).map((c) => c.name);
    if (!onPod && names.length === 0) return undefined;
    return { reason: 'hostProcess', detail: `${podAndContainersPhrase(onPod, names)} must not set securityContext.windowsOptions.hostProcess=true` };
  },
};

const hostNamespaces: PodCheck = {
  id: 'hostNamespaces',
  level: 'baseline',
  check(pod) {
    const set = ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => pod.spec[f] === true).map((f) => `${f}=true`);
    return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
  },
};

const privileged: PodCheck = {
  id: 'privileged',
  level: 'baseline',
  check(pod) {
    const names = pod.containers.filter((c) => c.securityContext.privileged === true).map((c) => c.name);
    return names.length ? { reason: 'privileged', detail: `${containersPhrase(names)} must not set securityContext.privileged=true` } : undefined;
  },
};

const capabilitiesBaseline: PodCheck = {
  id: 'capabilities_baseline',
  level: 'baseline',
  check(pod) {
    const names: string[] = [];
    const added = new Set<string>();
    for (const c of pod.containers) {
      const bad = addedCapabilities(c.securityContext).filter((cap) => !ALLOWED_CAPABILITIES.has(cap));
      if (bad.length) names.push(c.name);
      for (const cap of bad) added.add(cap);
    }
    if (!names.length) return undefined;
    return { reason: 'non-default capabilities', detail: `${containersPhrase(names)} must not include ${quoteAll([...added].sort())} in securityContext.capabilities.add` };
  },
};

/** capabilities.add as strings; anything that is not a string is reported as its JSON text. */
export function addedCapabilities(securityContext: Record<string, unknown>): string[] {
  const add = obj(securityContext.capabilities).add;
  return Array.isArray(add) ? add.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : [];
}

const hostPathVolumes: PodCheck = {
  id: 'hostPathVolumes',
  level: 'baseline',
  check(pod) {
    const names = pod.volumes.filter((v) => v.hostPath !== undefined && v.hostPath !== null).map((v) => str(v.name));
    return names.length ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${quoteAll(names)}` } : undefined;
  },
};

const hostPorts: PodCheck = {
  id: 'hostPorts',
  level: 'baseline',
  check(pod) {
    const names: string[] = [];
    const ports = new Set<string>();
    for (const c of pod.containers) {
      const used = c.ports.map((p) => p.hostPort).filter((p) => p !== undefined && p !== null && p !== 0);
      if (used.length) names.push(c.name);
      for (const p of used) ports.add(String(p));
    }
    if (!names.length) return undefined;
    const verb = names.length === 1 ? 'uses' : 'use';
    return { reason: 'hostPort', detail: `${containersPhrase(names)} ${verb} ${pluralize('hostPort', 'hostPorts', ports.size)} ${[...ports].join(', ')}` };
  },
};

const appArmor: PodCheck = {
  id: 'appArmorProfile',
  level: 'baseline',
  check(pod) {
    const bad: string[] = [];
    for (const [key, value] of Object.entries(pod.annotations)) {
      if (key.startsWith(APPARMOR_PREFIX) && value !== 'runtime/default' && !value.startsWith('localhost/')) bad.push(`${key}=${JSON.stringify(value)}`);
    }
    const contexts = [pod.securityContext, ...pod.containers.map((c) => c.securityContext)];
    for (const sc of contexts) {
      const type = obj(sc.appArmorProfile).type;
      if (type !== undefined && type !== 'RuntimeDefault' && type !== 'Localhost') bad.push(`securityContext.appArmorProfile.type=${JSON.stringify(type)}`);
    }
    if (!bad.length) return undefined;
    return { reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), detail: [...new Set(bad)].join(', ') };
  },
};

const seLinux: PodCheck = {
  id: 'seLinuxOptions',
  level: 'baseline',
  check(pod) {
    const problems = new Set<string>();
    const badOptions = (sc: Record<string, unknown>): boolean => {
      const o = obj(sc.seLinuxOptions);
      let bad = false;
      if (!ALLOWED_SELINUX_TYPES.has(str(o.type))) { problems.add(`type ${JSON.stringify(str(o.type))}`); bad = true; }
      if (str(o.user)) { problems.add(`user ${JSON.stringify(str(o.user))}`); bad = true; }
      if (str(o.role)) { problems.add(`role ${JSON.stringify(str(o.role))}`); bad = true; }
      return bad;
    };
    const onPod = badOptions(pod.securityContext);
    const names = pod.containers.filter((c) => badOptions(c.securityContext)).map((c) => c.name);
    if (!onPod && !names.length) return undefined;
    return { reason: 'seLinuxOptions', detail: `${podAndContainersPhrase(onPod, names)} set forbidden securityContext.seLinuxOptions: ${[...problems].join('; ')}` };
  },
};

const procMount: PodCheck = {
  id: 'procMount',
  level: 'baseline',
  check(pod) {
    const bad = pod.containers.filter((c) => c.securityContext.procMount !== undefined && c.securityContext.procMount !== null && c.securityContext.procMount !== 'Default');
    if (!bad.length) return undefined;
    const values = [...new Set(bad.map((c) => str(c.securityContext.procMount) || JSON.stringify(c.securityContext.procMount)))];
    return { reason: 'procMount', detail: `${containersPhrase(bad.map((c) => c.name))} must not set securityContext.procMount to ${quoteAll(values)}` };
  },
};

const seccompBaseline: PodCheck = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  check(pod) {
    const unconfined = (sc: Record<string, unknown>): boolean => obj(sc.seccompProfile).type === 'Unconfined';
    const onPod = unconfined(pod.securityContext) || pod.annotations[SECCOMP_POD_ANNOTATION] === 'unconfined';
    const names = pod.containers.filter((c) => unconfined(c.securityContext) || pod.annotations[`${SECCOMP_CONTAINER_PREFIX}${c.name}`] === 'unconfined').map((c) => c.name);
    if (!onPod && !names.length) return undefined;
    return { reason: 'seccompProfile', detail: `${podAndContainersPhrase(onPod, names)} must not set securityContext.seccompProfile.type to "Unconfined"` };
  },
};

const sysctls: PodCheck = {
  id: 'sysctls',
  level: 'baseline',
  check(pod) {
    const bad = list(pod.securityContext.sysctls).map((s) => str(s.name)).filter((n) => !ALLOWED_SYSCTLS.has(n));
    return bad.length ? { reason: 'forbidden sysctls', detail: [...new Set(bad)].join(', ') } : undefined;
  },
};

export const BASELINE_CHECKS: readonly PodCheck[] = [
  hostProcess, hostNamespaces, privileged, capabilitiesBaseline, hostPathVolumes, hostPorts, appArmor, seLinux, procMount, seccompBaseline, sysctls,
];
