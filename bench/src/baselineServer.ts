/**
 * Scenario 1's yardstick: a bare Koa server answering one Redis GET (the stored JSON of a member
 * document), in its own process like the API. Env: PORT, REDIS_URL, BASELINE_KEY.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Redis } from 'ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const key = process.env.BASELINE_KEY ?? 'bench:baseline';
const app = new Koa();
app.use(async (ctx) => {
  const doc = await redis.get(key);
  ctx.type = 'application/json';
  ctx.body = doc ?? 'null';
});
// Koa's handler catches its own errors (ctx.onerror); Node's server does not look at the promise it returns.
const handle = app.callback();
const server = createServer((request, response) => void handle(request, response));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`baseline listening ${(server.address() as AddressInfo).port}\n`);
});
const stop = () => {
  server.close();
  redis.disconnect();
  setTimeout(() => process.exit(0), 200).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
