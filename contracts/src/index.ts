export * from './money.js';
export * from './phone.js';
export * from './jobs.js';
