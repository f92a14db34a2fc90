// What every command logs: JSON lines on stderr through one pino root logger
// (src/observability/logger.ts), a child per component. The level comes from
// the configuration (log.level); commands without one log at info.
import { pino } from 'pino';
import { createLogger, lineLogger, type Logger, type LogLevelName } from '../observability/logger.ts';

let root: Logger | undefined;

/** The process's root logger, created on first use; a level given later still applies. */
export function rootLogger(level?: LogLevelName): Logger {
  root ??= createLogger(level ? { level } : {});
  if (level) root.level = level;
  return root;
}

export function jsonLogger(component: string, level?: LogLevelName): (line: string) => void {
  return lineLogger(rootLogger(level).child({ component }));
}

/**
 * `warren up`'s logger: every line appended to FILE (so a failed `up` can be
 * read afterwards without re-running it with --verbose), and also on stderr
 * when asked. Written synchronously, as the stderr logger is: a crash loses nothing.
 */
export function fileLogger(component: string, path: string, alsoStderr: boolean): (line: string) => void {
  const file = pino.destination({ dest: path, sync: true, append: true, mkdir: true });
  const destination = alsoStderr ? pino.multistream([{ stream: file }, { stream: pino.destination({ dest: 2, sync: true }) }]) : file;
  return lineLogger(createLogger({ destination }).child({ component }));
}
