import type { Logger } from '../logger.js';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** Keeps every line logged, so tests can assert what was (and was not) written. */
export function capturingLogger(): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const record = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  return {
    lines,
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    text: () => lines.map((line) => JSON.stringify(line)).join('\n'),
  };
}
