/** Where workers report; the caller decides the format (the CLI writes structured JSON lines). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The text of an unknown thrown value, for logs and status records. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
