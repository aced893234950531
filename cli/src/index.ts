export { main } from './main.js';
export { loadConfig, type Config } from './config.js';
