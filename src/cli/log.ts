// What every command logs: JSON lines on stderr through one pino root logger
// (src/observability/logger.ts), a child per component. The level comes from
// the configuration (log.level); commands without one log at info.
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
