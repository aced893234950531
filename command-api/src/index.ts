export { createApp, type AppOptions } from './app.js';
export { startApiServer, type ApiServer, type ApiServerOptions } from './apiServer.js';
export { createJsonLogger, type Logger, type LogLevel } from './http/logger.js';
export type { ApiDeps } from './http/context.js';
