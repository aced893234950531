export { createLogger, describeError, LOG_LEVELS, REDACTED_PATHS, type CreateLoggerOptions, type Logger, type LogLevel } from './logger.js';
export { metrics, registry, collectNodeMetrics, secondsSince, type GaugeSource } from './metrics.js';
export { startMetricsServer, type MetricsServer } from './metricsServer.js';
