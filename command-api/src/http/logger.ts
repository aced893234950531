/** Structured logging: every role writes one JSON object per line. Implementations must never be handed secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = 'info' | 'warn' | 'error' | 'silent';
const rank: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, silent: 3 };

export function createJsonLogger(
  role: string,
  { level = 'info', write = (line: string) => process.stdout.write(line) }: { level?: LogLevel; write?: (line: string) => void } = {},
): Logger {
  const log = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (rank[at] < rank[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, role, msg: message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
  };
}
