// A defensive read-only view of a Pod's security-relevant fields. The checks run
// on bodies that passed validation, yet any field may still be absent, null or of
// the wrong shape in a hostile body, so every accessor tolerates anything.
import { isObject } from '../types.ts';

export type Json = Record<string, unknown>;

export interface ContainerView {
  name: string;
  securityContext: Json;
  ports: Json[];
  raw: Json;
}

export interface PodView {
  annotations: Record<string, string>;
  spec: Json;
  securityContext: Json;
  /** containers, initContainers and ephemeralContainers, in that order (kube's visitContainers). */
  containers: ContainerView[];
  volumes: Json[];
  isWindows: boolean;
}

export const obj = (v: unknown): Json => (isObject(v) ? v : {});
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function containersOf(spec: Json): ContainerView[] {
  return ['containers', 'initContainers', 'ephemeralContainers'].flatMap((field) => list(spec[field]).map((raw) => ({
    name: str(raw.name),
    securityContext: obj(raw.securityContext),
    ports: list(raw.ports),
    raw,
  })));
}

/** The view of a pod from its metadata (annotations matter to AppArmor and seccomp) and spec. */
export function podView(metadata: unknown, spec: unknown): PodView {
  const s = obj(spec);
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(obj(metadata).annotations))) if (typeof v === 'string') annotations[k] = v;
  return {
    annotations,
    spec: s,
    securityContext: obj(s.securityContext),
    containers: containersOf(s),
    volumes: list(s.volumes),
    isWindows: str(obj(s.os).name) === 'windows',
  };
}

/** `container "a"` or `containers "a", "b"`, as PSA names the offenders. */
export function containersPhrase(names: readonly string[]): string {
  const quoted = names.map((n) => JSON.stringify(n)).join(', ');
  return `${names.length === 1 ? 'container' : 'containers'} ${quoted}`;
}

/** `pod`, `container "a"`, or `pod and containers "a", "b"`. */
export function podAndContainersPhrase(pod: boolean, names: readonly string[]): string {
  if (names.length === 0) return 'pod';
  return pod ? `pod and ${containersPhrase(names)}` : containersPhrase(names);
}

export const pluralize = (singular: string, plural: string, n: number): string => (n === 1 ? singular : plural);

export const quoteAll = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(', ');
