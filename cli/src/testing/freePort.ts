// Tests and the resilience checks import it from here; `lending start` uses it too (ownRedis.ts).
export { freePort } from '../freePort.js';
