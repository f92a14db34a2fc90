// Structured JSON logs (pino): one root logger per process, built by the
// composition root with the configured level; one child per component. Most
// of Warren logs through plain `(line: string) => void` callbacks, so
// controllers and the gateway's pieces need no logger of their own:
// lineLogger() adapts a pino logger to that shape, keeping the fields of lines
// that already are JSON objects. Every line written while a gateway request is
// being served carries its auditID (log-context.ts).
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentAuditID } from './log-context.ts';

export type { Logger } from 'pino';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export interface LoggerOptions {
  level?: LogLevelName;
  /** Where lines go; default stderr, written synchronously so a crash loses nothing. */
  destination?: DestinationStream;
}

const LEVELS = new Set<string>(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      // "level":"warn" rather than 40, and ISO times: read by people as often as by machines.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      base: { pid: process.pid },
      mixin: () => {
        const auditID = currentAuditID();
        return auditID ? { auditID } : {};
      },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/**
 * The `log(line)` callback over a pino logger. A JSON object line keeps its
 * fields, its `level` picks the method (default info) and its `msg` or
 * `message` is the message; its own `time` gives way to pino's. Anything else
 * is the message of an info line.
 */
export function lineLogger(logger: Logger): (line: string) => void {
  return (line) => {
    const fields = line.startsWith('{') ? parseObject(line) : undefined;
    if (!fields) {
      logger.info(line);
      return;
    }
    const { level, msg, message, time: _time, ...rest } = fields;
    const method = typeof level === 'string' && LEVELS.has(level) ? (level as LogLevelName) : 'info';
    const text = typeof msg === 'string' ? msg : typeof message === 'string' ? message : undefined;
    if (text === undefined) logger[method](rest);
    else logger[method](rest, text);
  };
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
