/** Where workers report; the CLI hands them the role's pino logger (@honeylend/observability). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The text of an unknown thrown value, for logs and status records. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A logger whose every line also carries `fields` (a job's request id), whatever logger it wraps. */
export function withFields(logger: Logger, fields: Record<string, unknown>): Logger {
  return {
    info: (message, more) => logger.info(message, { ...fields, ...more }),
    warn: (message, more) => logger.warn(message, { ...fields, ...more }),
    error: (message, more) => logger.error(message, { ...fields, ...more }),
  };
}
