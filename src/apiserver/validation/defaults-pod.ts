// Pod spec defaults (k8s.io/kubernetes/pkg/apis/core/v1/defaults.go), which
// kubectl get -o yaml shows on a real server. Mutates in place.
import { isObject } from '../../core/types.ts';

type Obj = Record<string, unknown>;

function setIfAbsent(o: Obj, field: string, value: unknown): void {
  if (o[field] === undefined || o[field] === null) o[field] = value;
}

/** "nginx", "nginx:latest" → Always; "nginx:1.27", "x@sha256:…" → IfNotPresent. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  const tag = colon >= 0 ? lastSegment.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: unknown): void {
  if (!isObject(probe)) return;
  setIfAbsent(probe, 'timeoutSeconds', 1);
  setIfAbsent(probe, 'periodSeconds', 10);
  setIfAbsent(probe, 'successThreshold', 1);
  setIfAbsent(probe, 'failureThreshold', 3);
  const http = probe.httpGet;
  if (isObject(http)) {
    setIfAbsent(http, 'path', '/');
    setIfAbsent(http, 'scheme', 'HTTP');
  }
}

export function defaultContainer(c: Obj): void {
  setIfAbsent(c, 'terminationMessagePath', '/dev/termination-log');
  setIfAbsent(c, 'terminationMessagePolicy', 'File');
  // kube defaults the policy even without an image (no tag → Always).
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicy(typeof c.image === 'string' ? c.image : '');
  setIfAbsent(c, 'resources', {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObject(p)) setIfAbsent(p, 'protocol', 'TCP');
  if (Array.isArray(c.env)) {
    for (const e of c.env) {
      const fieldRef = isObject(e) && isObject(e.valueFrom) ? e.valueFrom.fieldRef : undefined;
      if (isObject(fieldRef)) setIfAbsent(fieldRef, 'apiVersion', 'v1');
    }
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[probe]);
}

export function defaultPodSpec(spec: Obj): void {
  setIfAbsent(spec, 'restartPolicy', 'Always');
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'terminationGracePeriodSeconds', 30);
  setIfAbsent(spec, 'schedulerName', 'default-scheduler');
  setIfAbsent(spec, 'securityContext', {});
  for (const list of ['containers', 'initContainers']) {
    const items = spec[list];
    if (Array.isArray(items)) for (const c of items) if (isObject(c)) defaultContainer(c);
  }
  if (Array.isArray(spec.volumes)) {
    for (const v of spec.volumes) {
      if (!isObject(v)) continue;
      for (const source of ['secret', 'configMap']) if (isObject(v[source])) setIfAbsent(v[source], 'defaultMode', 420);
      if (isObject(v.hostPath)) setIfAbsent(v.hostPath, 'type', '');
    }
  }
}

export function defaultPodTemplate(template: unknown): void {
  if (!isObject(template)) return;
  if (isObject(template.spec)) defaultPodSpec(template.spec);
}

/**
 * A created Pod also gets what admission adds on a real server: the "default"
 * service account, enableServiceLinks and the not-ready/unreachable
 * tolerations. (The projected token volume is not added; priority and
 * preemptionPolicy are Priority admission's: registry/priority-admission.ts.)
 */
export function defaultPod(pod: Obj): void {
  if (!isObject(pod.spec)) return;
  const spec = pod.spec;
  defaultPodSpec(spec);
  setIfAbsent(spec, 'enableServiceLinks', true);
  if (!spec.serviceAccountName) spec.serviceAccountName = typeof spec.serviceAccount === 'string' && spec.serviceAccount ? spec.serviceAccount : 'default';
  setIfAbsent(spec, 'serviceAccount', spec.serviceAccountName);
  const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  for (const taint of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => isObject(t) && t.key === taint)) {
      tolerations.push({ key: taint, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    }
  }
  spec.tolerations = tolerations;
}
