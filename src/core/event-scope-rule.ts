// kube 1.20's rule for an Event about a cluster-scoped object (legacyValidateEvent, which both Event APIs
// run): its reference has no namespace, so the Event itself must be in "default" (or, for an Event with
// eventTime, "kube-system"; for one without, no namespace). Shared by the embedded apiserver's validation and
// the gateway's translation of such Events (core/tenancy/event-scope.ts).

/** A time field that is set (kube's zero time, absent or null, is unset). */
export function hasTime(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** Whether kube takes an Event in `eventNamespace` whose reference names no namespace. */
export function takesClusterScopedReference(eventNamespace: string, timed: boolean): boolean {
  return eventNamespace === 'default' || (timed ? eventNamespace === 'kube-system' : eventNamespace === '');
}
