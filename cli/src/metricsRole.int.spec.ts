import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@honeylend/command-api';
import { loadConfig } from './config.js';
import { startMetricsRole } from './metricsRole.js';

const logger = createLogger('test', { level: 'silent' });
/** An address of this machine that other machines reach (none on a host with only a loopback). */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const role of running.splice(0)) await role.stop();
});

async function answers(host: string, port: number): Promise<boolean> {
  try {
    return (await fetch(`http://${host}:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

describe('the metrics port', () => {
  it('listens on the loopback address only unless METRICS_HOST names another', async () => {
    const local = (await startMetricsRole(loadConfig({ METRICS_PORT: '0' }), null, logger))!;
    running.push(local);
    expect(local.listening.host).toBe('127.0.0.1');
    expect(await answers('127.0.0.1', local.listening.port)).toBe(true);
    if (outsideAddress) expect(await answers(outsideAddress, local.listening.port)).toBe(false);

    const everywhere = (await startMetricsRole(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }), null, logger))!;
    running.push(everywhere);
    expect(everywhere.listening.host).toBe('0.0.0.0');
    if (outsideAddress) expect(await answers(outsideAddress, everywhere.listening.port)).toBe(true);
  });
});
