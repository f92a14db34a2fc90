// Just enough of Kubernetes' resource.Quantity to add up node capacity and pod
// requests: parse to a number (cores for cpu, bytes for memory, a count for
// pods), and format back the way `kubectl get -o yaml` would show such a sum.
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/** The value of a quantity, or undefined when it is not one. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY.exec(value.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[3] !== undefined) return base * 10 ** Number(m[3]);
  const suffix = m[2] ?? '';
  return base * (BINARY[suffix] ?? DECIMAL[suffix] ?? 1);
}

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
