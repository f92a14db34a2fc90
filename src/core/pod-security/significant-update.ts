// kube's PSA re-evaluates a pod on update only when something it checks can have
// changed: the only pod spec fields mutable after creation that matter are the
// containers' images (and the count of containers, via ephemeral containers),
// plus the seccomp and AppArmor annotations. Any other update is let through,
// so a pod admitted before a namespace was tightened can still be relabelled.
import { list, obj, podView } from './pod-view.ts';

const SECURITY_ANNOTATION = /^(seccomp\.security\.alpha\.kubernetes\.io\/pod|container\.seccomp\.security\.alpha\.kubernetes\.io\/|container\.apparmor\.security\.beta\.kubernetes\.io\/)/;

export function podSpecUpdateIsSignificant(next: { metadata?: unknown; spec?: unknown }, old: { metadata?: unknown; spec?: unknown }): boolean {
  const a = podView(next.metadata, next.spec);
  const b = podView(old.metadata, old.spec);
  for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
    const x = list(obj(next.spec)[field]);
    const y = list(obj(old.spec)[field]);
    if (x.length !== y.length) return true;
    if (x.some((c, i) => c.image !== y[i]?.image)) return true;
  }
  const keys = new Set([...Object.keys(a.annotations), ...Object.keys(b.annotations)].filter((k) => SECURITY_ANNOTATION.test(k)));
  return [...keys].some((k) => a.annotations[k] !== b.annotations[k]);
}
