// Member resource summaries format their sums back the way `kubectl get -o yaml`
// would show them; parsing is core/quantity.ts's quantityNumber (the one parser).
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** A sum as a canonical quantity: cpu in cores or millicores, bytes with the largest exact binary suffix. */
export function formatQuantity(resource: string, value: number): string {
  if (resource === 'cpu') {
    const milli = Math.round(value * 1000);
    return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  }
  const whole = Math.round(value);
  if (whole === 0) return '0';
  for (const suffix of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki']) {
    const unit = BINARY[suffix] ?? 1;
    if (whole % unit === 0 && Math.abs(whole) >= unit) return `${whole / unit}${suffix}`;
  }
  return String(whole);
}
