// Kubernetes version ordering (as for CRD versions in discovery): GA before beta
// before alpha, higher numbers first; anything not of the form v<N>[alpha|beta<M>]
// comes last, alphabetically.
const PATTERN = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(version: string): [number, number, number, string] {
  const m = PATTERN.exec(version);
  if (!m) return [3, 0, 0, version];
  const stability = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
  return [stability, -Number(m[1]), -Number(m[3] ?? 0), ''];
}

export function compareVersionPriority(a: string, b: string): number {
  const x = rank(a);
  const y = rank(b);
  for (let i = 0; i < 3; i++) {
    const d = (x[i] as number) - (y[i] as number);
    if (d !== 0) return d;
  }
  return x[3] < y[3] ? -1 : x[3] > y[3] ? 1 : 0;
}
