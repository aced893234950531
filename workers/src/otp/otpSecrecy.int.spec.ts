import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, otpJobOptions } from '@honeylend/contracts';
import { eventually } from '../testing/eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { dumpKeyAsText, keysWithPrefix } from '../testing/redisForTests.js';
import { codeFromOutbox, otpJobFor, startTestWorkers, type TestWorkers } from '../testing/workersFixture.js';

/** The code as a token of its own: a longer digit run (a timestamp, say) that merely contains it does not count. */
function mentions(text: string, code: string): boolean {
  return new RegExp(`(?<!\\d)${code}(?!\\d)`).test(text);
}

async function everythingStoredUnder(system: TestWorkers, except: readonly string[] = []): Promise<string> {
  const keys = (await keysWithPrefix(system.redis, system.keys.prefix)).filter((key) => !except.includes(key));
  const dumps = await Promise.all(keys.map(async (key) => `${key} => ${await dumpKeyAsText(system.redis, key)}`));
  return dumps.join('\n');
}

describe('the OTP code stays secret (design §7)', () => {
  describe('with the development outbox', () => {
    let system: TestWorkers;
    beforeAll(async () => {
      system = await startTestWorkers();
    });
    afterAll(async () => {
      await system?.close();
    });

    it('keeps the code out of the job, its result, every other Redis key and every log line', async () => {
      const job = otpJobFor();
      await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
      const code = await codeFromOutbox(system.redis, system.keys, job.phone);
      const finished = await eventually('the completed OTP job', async () => {
        const stored = await system.otpQueue.getJob(job.challengeId);
        return stored?.finishedOn ? stored : undefined;
      });

      expect(finished.data).toEqual(job);
      expect(JSON.stringify(finished.returnvalue)).not.toContain(code);
      const bullKeys = (await keysWithPrefix(system.redis, system.keys.queuePrefix)).length;
      expect(bullKeys).toBeGreaterThan(0);
      const stored = await everythingStoredUnder(system, [system.keys.smsOutbox]);
      expect(stored).toContain(job.challengeId);
      expect(mentions(stored, code)).toBe(false);
      expect(mentions(system.logger.text(), code)).toBe(false);
      expect(system.logger.lines.map((line) => line.message)).toContain('SMS to +63•••••4567 queued');
    });

    it('refuses a job that carries a code, without sending anything', async () => {
      const job = { ...otpJobFor({ phone: '+639179990000' }), code: '123456' };
      await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
      const failed = await eventually('the refused job', async () => {
        const stored = await system.otpQueue.getJob(job.challengeId);
        return stored?.failedReason ? stored : undefined;
      });
      expect(failed.failedReason).toMatch(/invalid OTP job/);
      expect(failed.attemptsMade).toBe(1);
      expect(await system.redis.exists(system.keys.otpChallenge(job.memberId))).toBe(0);
    });
  });

  describe('with a gateway that fails and echoes the message back', () => {
    let gateway: LocalHttpServer;
    let system: TestWorkers;
    beforeAll(async () => {
      gateway = await startLocalHttpServer((request, response) => answerJson(response, 500, { error: 'rejected', echo: request.body }));
      system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'test-key' } });
    });
    afterAll(async () => {
      await system?.close();
      await gateway?.close();
    });

    it('keeps every attempted code out of the failed job, the status record and the logs', async () => {
      const job = otpJobFor();
      await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), attempts: 2, backoff: { type: 'exponential', delay: 10 } });
      await eventually('the job to give up', async () => ((await system.otpQueue.getJobState(job.challengeId)) === 'failed' ? true : undefined));

      const codes = gateway.requests.map((request) => (JSON.parse(request.body) as { message: string }).message.match(/\d{6}/)?.[0] ?? '');
      expect(codes).toHaveLength(2);
      const stored = await everythingStoredUnder(system);
      const logs = system.logger.text();
      for (const code of codes) {
        expect(code).toMatch(/^\d{6}$/);
        expect(mentions(stored, code)).toBe(false);
        expect(mentions(logs, code)).toBe(false);
      }
      expect(stored).toContain('SMS gateway answered 500');
    });
  });
});
