// PodSpec and PodTemplateSpec checks (pkg/apis/core/validation): the subset
// that catches the mistakes people make by hand. Runs after defaulting, as in
// kube-apiserver, so restartPolicy, dnsPolicy and imagePullPolicy are set.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { duplicate, index, invalidValue, notSupported, required } from './field-errors.ts';
import { isDNS1123Label, isValidPortName, isValidPortNum } from './name-rules.ts';
import { validateAnnotations, validateLabels } from './metadata.ts';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asRecord = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

function validatePorts(ports: unknown, base: string): StatusCause[] {
  const causes: StatusCause[] = [];
  asArray(ports).forEach((raw, i) => {
    const p = asRecord(raw);
    const at = index(base, i);
    if (typeof p.name === 'string' && p.name !== '') {
      for (const msg of isValidPortName(p.name)) causes.push(invalidValue(`${at}.name`, p.name, msg));
    }
    const cp = p.containerPort;
    if (cp === undefined || cp === 0) causes.push(required(`${at}.containerPort`));
    else for (const msg of isValidPortNum(Number(cp))) causes.push(invalidValue(`${at}.containerPort`, cp, msg));
    if (p.hostPort !== undefined && p.hostPort !== 0) {
      for (const msg of isValidPortNum(Number(p.hostPort))) causes.push(invalidValue(`${at}.hostPort`, p.hostPort, msg));
    }
    if (!p.protocol) causes.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(String(p.protocol))) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  });
  return causes;
}

function validateContainers(list: unknown, base: string, seen: Set<string>, needsImage: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  asArray(list).forEach((raw, i) => {
    const c = asRecord(raw);
    const at = index(base, i);
    const name = typeof c.name === 'string' ? c.name : '';
    if (!name) causes.push(required(`${at}.name`));
    else {
      for (const msg of isDNS1123Label(name)) causes.push(invalidValue(`${at}.name`, name, msg));
      if (seen.has(name)) causes.push(duplicate(`${at}.name`, name));
      seen.add(name);
    }
    if (needsImage && (typeof c.image !== 'string' || c.image.trim() === '')) causes.push(required(`${at}.image`));
    if (c.imagePullPolicy === undefined || c.imagePullPolicy === '') causes.push(required(`${at}.imagePullPolicy`));
    else if (!PULL_POLICIES.includes(String(c.imagePullPolicy))) causes.push(notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
    causes.push(...validatePorts(c.ports, `${at}.ports`));
    asArray(c.env).forEach((e, j) => {
      if (!asRecord(e).name) causes.push(required(`${index(`${at}.env`, j)}.name`));
    });
  });
  return causes;
}

export function validatePodSpec(specRaw: unknown, base: string): StatusCause[] {
  const spec = asRecord(specRaw);
  const causes: StatusCause[] = [];
  const volumes = new Set<string>();
  asArray(spec.volumes).forEach((raw, i) => {
    const name = String(asRecord(raw).name ?? '');
    const at = `${index(`${base}.volumes`, i)}.name`;
    if (!name) causes.push(required(at));
    else {
      for (const msg of isDNS1123Label(name)) causes.push(invalidValue(at, name, msg));
      if (volumes.has(name)) causes.push(duplicate(at, name));
      volumes.add(name);
    }
  });
  const names = new Set<string>();
  if (asArray(spec.containers).length === 0) causes.push(required(`${base}.containers`));
  else causes.push(...validateContainers(spec.containers, `${base}.containers`, names, true));
  causes.push(...validateContainers(spec.initContainers, `${base}.initContainers`, names, true));
  const restart = spec.restartPolicy;
  if (restart === undefined || restart === '') causes.push(required(`${base}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(String(restart))) causes.push(notSupported(`${base}.restartPolicy`, restart, RESTART_POLICIES));
  const dns = spec.dnsPolicy;
  if (dns === undefined || dns === '') causes.push(required(`${base}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(String(dns))) causes.push(notSupported(`${base}.dnsPolicy`, dns, DNS_POLICIES));
  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) causes.push(invalidValue(`${base}.terminationGracePeriodSeconds`, grace, 'must be greater than or equal to 0'));
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && deadline <= 0) causes.push(invalidValue(`${base}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'));
  return causes;
}

/** A pod template inside a workload: `<base>.metadata.labels`, `<base>.spec...`. */
export function validatePodTemplateSpec(templateRaw: unknown, base: string): StatusCause[] {
  const t = asRecord(templateRaw);
  const meta = asRecord(t.metadata);
  return [
    ...validateLabels(meta.labels, `${base}.metadata.labels`),
    ...validateAnnotations(meta.annotations, `${base}.metadata.annotations`),
    ...validatePodSpec(t.spec, `${base}.spec`),
  ];
}
