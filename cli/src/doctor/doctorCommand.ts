import { devDefaultsAllowed } from '@honeylend/contracts/server';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { checkBackupEncryption, checkClock, checkDisk, checkEventStore, checkRedis, checkSecrets, checkSms, type Finding } from './doctorChecks.js';

const LABEL: Record<Finding['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL' };

/** One line per finding: check, status, what was found and, when it is not ok, the fix. */
export function doctorTable(findings: Finding[]): string {
  const width = Math.max(...findings.map((finding) => finding.check.length), 'CHECK'.length);
  const lines = [`${'CHECK'.padEnd(width)}  STATUS  FOUND  →  FIX`];
  for (const { check, status, detail, fix } of findings) {
    lines.push(`${check.padEnd(width)}  ${LABEL[status].padEnd(6)}  ${detail}${status !== 'ok' && fix ? `  →  ${fix}` : ''}`);
  }
  const count = (status: Finding['status']) => findings.filter((finding) => finding.status === status).length;
  lines.push('', `${count('ok')} ok, ${count('warn')} warning${count('warn') === 1 ? '' : 's'}, ${count('fail')} problem${count('fail') === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `lending doctor`: what the system needs and whether this machine gives it — configuration,
 * Redis, the event store and projection lag, production secrets, backup encryption, the SMS sender,
 * disk space and the clock. Prints one table and answers the exit code: 1 when anything is a problem.
 */
export async function doctorCommand(env: NodeJS.ProcessEnv): Promise<number> {
  const findings: Finding[] = [];
  let config: Config;
  try {
    config = loadConfig(env);
    findings.push({ check: 'Configuration', status: 'ok', detail: `NODE_ENV=${config.nodeEnv}, event store ${config.eventStoreUrl.replace(/\/\/[^@/]*@/, '//…@')}` });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    findings.push({ check: 'Configuration', status: 'fail', detail: error.message, fix: 'correct the environment variable it names (README: Configuration)' });
    // The rest is still worth knowing: checked as a development start would read the same environment.
    try {
      config = loadConfig({ ...env, NODE_ENV: 'development' });
    } catch {
      process.stdout.write(doctorTable(findings));
      return 1;
    }
  }
  const { findings: redisFindings, redis } = await checkRedis(config);
  findings.push(...redisFindings);
  try {
    findings.push(...(await checkEventStore(config, redis)));
    findings.push(...checkSecrets(env, !devDefaultsAllowed(env)));
    findings.push(...checkBackupEncryption(config));
    findings.push(...(await checkSms(env)));
    findings.push(...checkDisk(config));
    findings.push(...(await checkClock(redis)));
  } finally {
    redis?.disconnect();
  }
  process.stdout.write(doctorTable(findings));
  return findings.some((finding) => finding.status === 'fail') ? 1 : 0;
}
