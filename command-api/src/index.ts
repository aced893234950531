export { createApp, type AppOptions } from './app.js';
export { startApiServer, type ApiServer, type ApiServerOptions } from './apiServer.js';
export { createJsonLogger, type Logger, type LogLevel } from './http/logger.js';
export type { ApiDeps } from './http/context.js';
// The write side's building blocks, for tools that seed or repair through the same rules (tests, benchmarks).
export { handleCommand, loadState } from './domain/commandHandler.js';
export { memberDecider, type MemberCommand } from './member/decide.js';
