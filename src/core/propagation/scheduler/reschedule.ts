// Karmada ≥ 1.12's explicit reschedule (util.RescheduleRequired): a binding whose
// spec.rescheduleTriggeredAt (set by WorkloadRebalancer, or by hand) is later than its
// status.lastScheduledTime is scheduled again in Fresh mode. No lastScheduledTime means the
// first schedule has not finished (or keeps failing): that schedule happens anyway.
// Both are compared at whole seconds, the precision metav1.Time keeps, so a fractional
// trigger inside the second of the last schedule does not fire again and again.

const seconds = (text: string): number | undefined => {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};

export function rescheduleRequired(triggeredAt: string | undefined, lastScheduledTime: string | undefined): boolean {
  if (!triggeredAt || !lastScheduledTime) return false;
  const trigger = seconds(triggeredAt);
  const last = seconds(lastScheduledTime);
  return trigger !== undefined && last !== undefined && trigger > last;
}
