// A log line with a level, for the plain `log(line)` callbacks most of Warren
// writes through: lineLogger (logger.ts) reads a JSON line's `level` and `msg`.
// An outage or a failure an operator must act on is `warn` or `error`; the
// plain string lines stay `info`. No imports: any layer may use it.
export type LineLevel = 'debug' | 'info' | 'warn' | 'error';

export function levelled(level: LineLevel, msg: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ level, msg, ...fields });
}
