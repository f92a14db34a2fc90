// The schedule check of CronJob validation: robfig/cron's ParseStandard, whose
// error text kube-apiserver returns as the detail of `spec.schedule: Invalid value`.

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

interface Bounds { min: number; max: number; names?: Record<string, number> }

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

/** Go's time.ParseDuration accepts e.g. "1h30m", "90s", "1.5h". */
const GO_DURATION = /^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;

function parseIntOrName(expr: string, names?: Record<string, number>): number | string {
  const named = names?.[expr.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^[+-]?[0-9]+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`;
  const n = Number.parseInt(expr, 10);
  if (n < 0) return `negative number (${n}) not allowed: ${expr}`;
  return n;
}

function checkRange(expr: string, b: Bounds): string | undefined {
  const [rangeAndStep, ...rest] = expr.split('/');
  if (rest.length > 1) return `too many slashes: ${expr}`;
  const lowHigh = (rangeAndStep ?? '').split('-');
  if (lowHigh.length > 2) return `too many hyphens: ${expr}`;
  let start: number;
  let end: number;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    const s = parseIntOrName(lowHigh[0] ?? '', b.names);
    if (typeof s === 'string') return s;
    start = s;
    end = s;
    if (lowHigh.length === 2) {
      const e = parseIntOrName(lowHigh[1] ?? '', b.names);
      if (typeof e === 'string') return e;
      end = e;
    }
  }
  if (rest.length === 1) {
    const step = parseIntOrName(rest[0] ?? '');
    if (typeof step === 'string') return step;
    if (step === 0) return `step of range should be a positive number: ${expr}`;
    if (lowHigh.length === 1 && lowHigh[0] !== '*' && lowHigh[0] !== '?') end = b.max;
  }
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return undefined;
}

/** undefined when valid, else the message kube-apiserver reports. */
export function validateCronSchedule(schedule: string): string | undefined {
  const trimmed = schedule.trim();
  if (/^(CRON_)?TZ=/.test(trimmed)) return 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
  if (trimmed === '') return 'empty spec string';
  if (trimmed.startsWith('@')) {
    if (DESCRIPTORS.has(trimmed)) return undefined;
    if (trimmed.startsWith('@every ')) {
      const d = trimmed.slice('@every '.length);
      return GO_DURATION.test(d) ? undefined : `failed to parse duration ${trimmed}: time: invalid duration ${JSON.stringify(d)}`;
    }
    return `unrecognized descriptor: ${trimmed}`;
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    const b = FIELDS[i] as Bounds;
    for (const part of (fields[i] ?? '').split(',')) {
      const err = checkRange(part, b);
      if (err) return err;
    }
  }
  return undefined;
}
