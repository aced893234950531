// Every role logs with pino through @honeylend/observability (one logger per role, secrets redacted).
export { createLogger, type Logger, type LogLevel } from '@honeylend/observability';
