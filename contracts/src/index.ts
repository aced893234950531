export * from './money.js';
export * from './phone.js';
export * from './jobs.js';
export * from './validation.js';
export * from './credit.js';
export * from './events.js';
export * from './readModels.js';
export * from './api.js';
