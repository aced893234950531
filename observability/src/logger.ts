import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

/**
 * Structured logging with pino: one JSON object per line, each carrying the `role` that wrote it
 * (api, projections, workers, start…) and the `node` (NODE_NAME, or the host name) it runs on, so
 * the lines of many processes can be merged and still be told apart. A request's lines carry its
 * `requestId`, which is also written into the events it appends and the jobs it enqueues: one
 * borrower action can be followed from HTTP to event to projection to socket to SMS.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line also carries `bindings` (a request id, a queue name). */
  child(bindings: Record<string, unknown>): Logger;
  /** Whether a line at `level` would be written: lets hot paths skip building fields nobody reads. */
  isLevelEnabled(level: LogLevel): boolean;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What must never reach a log line: credentials, codes, tokens, secrets, and the headers that
 * carry them. pino replaces each with "[redacted]" (fast-redact: paths compiled once, next to no
 * cost when absent). The paths are explicit — each name at the top of a line's fields and inside
 * the containers lines use (a request's `body`, `headers`, `query`; an error's `details`; a job's
 * `data`) — because wildcard paths cost 10–30× more on every line.
 */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'otp',
  'code',
  'codeHash',
  'token',
  'accessToken',
  'refreshToken',
  'secret',
  'jwtSecret',
  'otpSecret',
  'apiKey',
  'authorization',
  'cookie',
  'signature',
  'sig',
];
const CONTAINERS = ['body', 'query', 'headers', 'req.headers', 'res.headers', 'data', 'job', 'job.data', 'details', 'details.fields', 'error', 'err', 'fields'];
/** Header names that are not identifiers (authorization and cookie are among the fields above). */
const SECRET_HEADERS = ['set-cookie', 'x-api-key', 'proxy-authorization'];

export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_FIELDS,
  ...CONTAINERS.flatMap((container) => SECRET_FIELDS.map((name) => `${container}.${name}`)),
  ...['headers', 'req.headers', 'res.headers'].flatMap((container) => SECRET_HEADERS.map((header) => `${container}["${header}"]`)),
];

export interface CreateLoggerOptions {
  level?: LogLevel;
  /** Where the lines go (default: stdout). Tests pass `write` to keep the lines. */
  write?: (line: string) => void;
  /** Which machine or container this is (default: NODE_NAME, else the host name). */
  node?: string;
  /** Human-readable lines (pino-pretty) instead of JSON; default: a terminal is attached outside production. */
  pretty?: boolean;
  /** How often buffered stdout lines are written when quiet (default STDOUT_FLUSH_MS); the process's first stdout logger sets it. */
  flushEveryMs?: number;
}

/**
 * pino's ISO time (`,"time":"2026-11-25T23:10:00.123Z"`), built once per millisecond: formatting a
 * Date was more than half of a request line's cost, and under load many lines share a millisecond.
 */
function isoTimeOncePerMillisecond(): () => string {
  let millisecond = Number.NaN;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== millisecond) {
      millisecond = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

function defaultPretty(): boolean {
  return process.stdout.isTTY === true && (process.env.NODE_ENV ?? 'development') === 'development';
}

/** How long an info line may wait in the stdout buffer when the process is quiet. */
export const STDOUT_FLUSH_MS = 200;

/**
 * The process's one stdout destination (every logger of the process shares it, so lines keep their
 * order). Lines are gathered until about 4 KB and then written in one synchronous `write(2)` by
 * sonic-boom (pino's own writer: it retries a full pipe and stops at a broken one). Writing each line
 * on its own cost 2.7 µs of CPU a request line, more than half of it the write per line; sonic-boom's own
 * `minLength` buffer 1.6–1.7 µs (it re-measures its growing buffer string on every line); gathering
 * the lines here and joining them once 1.05–1.1 µs. What waits is written every STDOUT_FLUSH_MS, at
 * once after any line at warn or above, and when the process exits (process.exit, the end of its
 * work, an uncaught exception); only a kill -9 or a crash of the runtime itself loses the info lines
 * of the last STDOUT_FLUSH_MS.
 */
let stdout: { stream: DestinationStream; flush: () => void } | undefined;

const GATHER_CHARACTERS = 4096;

function bufferedStdout(flushEveryMs: number): { stream: DestinationStream; flush: () => void } {
  if (stdout) return stdout;
  const writer = pino.destination({ dest: 1, sync: true });
  let lines: string[] = [];
  let characters = 0;
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    characters = 0;
    try {
      writer.write(text);
    } catch {
      // A closed stdout has nowhere to write to (a broken pipe silences sonic-boom by itself).
    }
  };
  const stream: DestinationStream = {
    write(line: string) {
      lines.push(line);
      characters += line.length;
      if (characters >= GATHER_CHARACTERS) flush();
    },
  };
  setInterval(flush, flushEveryMs).unref();
  process.on('exit', flush);
  stdout = { stream, flush };
  return stdout;
}

/** One logger per role, with the role's `role` and `node` bindings. */
export function createLogger(
  role: string,
  { level = 'info', write, node = process.env.NODE_NAME || hostname(), pretty = write === undefined && defaultPretty(), flushEveryMs = STDOUT_FLUSH_MS }: CreateLoggerOptions = {},
): Logger {
  const options = {
    level,
    base: { role, node },
    timestamp: isoTimeOncePerMillisecond(),
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
  };
  if (pretty) return wrap(pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }), () => {});
  if (write) return wrap(pino(options, { write }), () => {});
  const { stream, flush } = bufferedStdout(flushEveryMs);
  return wrap(pino(options, stream), flush);
}

/** Our call shape (message first, then fields) over pino's (fields first); lines at warn and above are flushed at once. */
function wrap(instance: PinoLogger, flush: () => void): Logger {
  return {
    debug: (message, fields) => (fields ? instance.debug(fields, message) : instance.debug(message)),
    info: (message, fields) => (fields ? instance.info(fields, message) : instance.info(message)),
    warn: (message, fields) => {
      if (fields) instance.warn(fields, message);
      else instance.warn(message);
      flush();
    },
    error: (message, fields) => {
      if (fields) instance.error(fields, message);
      else instance.error(message);
      flush();
    },
    child: (bindings) => wrap(instance.child(bindings), flush),
    isLevelEnabled: (level) => level !== 'silent' && instance.isLevelEnabled(level),
  };
}

/** The text of an unknown thrown value, for log fields. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
