import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, otpJobOptions } from '@honeylend/contracts';
import { randomUUID } from 'node:crypto';
import { bankChangeBinding, consumeChallenge, readOtpDeliveryStatus, readSmsOutbox, verifyBankChangeCode, verifyOtp, verifyOtpChallenge, type VerifyOtpInput } from '@honeylend/contracts/server';
import { eventually } from '../testing/eventually.js';
import { TEST_OTP_SECRET, codeFromOutbox, otpJobFor, startTestWorkers, wrongCodeFor, type TestWorkers } from '../testing/workersFixture.js';

describe('withdrawal OTP, from enqueued job to verified code', () => {
  let system: TestWorkers;
  beforeAll(async () => {
    system = await startTestWorkers();
  });
  afterAll(async () => {
    await system?.close();
  });

  async function issue(overrides: Parameters<typeof otpJobFor>[0] = {}) {
    const job = otpJobFor(overrides);
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    const code = await codeFromOutbox(system.redis, system.keys, job.phone);
    return { job, code };
  }

  function verify(input: Omit<VerifyOtpInput, 'secret' | 'now'> & { now?: Date }) {
    return verifyOtp(system.redis, system.keys, { now: new Date(), secret: TEST_OTP_SECRET, ...input });
  }

  it('texts a six-digit code naming the amount and the masked account, that confirms the withdrawal once, then never again', async () => {
    const { job, code } = await issue({ phone: '+639170000001', destination: 'BPI ••••7890' });
    expect(code).toMatch(/^\d{6}$/);
    const [text] = await readSmsOutbox(system.redis, system.keys, { to: job.phone });
    expect(text?.body).toBe(`Your Honeylend withdrawal code is ${code}. It confirms ₱1,500.00 to BPI ••••7890 and expires in 5 minutes. Never share it.`);

    expect(await verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code })).toBe('ok');
    expect(await verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code })).toBe('expired');
  });

  it('verifies against the member’s live challenge when no challenge id is given', async () => {
    const { job, code } = await issue({ phone: '+639170000002' });
    expect(await verify({ memberId: job.memberId, amountCentavos: job.amountCentavos, code: wrongCodeFor(code) })).toBe('invalid');
    expect(await verify({ memberId: job.memberId, amountCentavos: job.amountCentavos, code })).toBe('ok');
  });

  it('answers exhausted after five wrong codes, even to the right code', async () => {
    const { job, code } = await issue({ phone: '+639170000003' });
    const attempt = (candidate: string) => verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code: candidate });
    for (let i = 0; i < 5; i += 1) expect(await attempt(wrongCodeFor(code))).toBe('invalid');
    expect(await attempt(code)).toBe('exhausted');
    expect(await system.redis.hexists(system.keys.otpChallenge(job.memberId), 'codeHash')).toBe(0);
  });

  it('refuses the right code for a different amount, spending an attempt', async () => {
    const { job, code } = await issue({ phone: '+639170000004', amountCentavos: 500_000 });
    expect(await verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: 500_100, code })).toBe('invalid');
    expect(await system.redis.hget(system.keys.otpChallenge(job.memberId), 'attemptsLeft')).toBe('4');
    expect(await verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: 500_000, code })).toBe('ok');
  });

  it('answers expired when the member has no challenge at all', async () => {
    const { memberId, challengeId } = otpJobFor();
    expect(await verify({ memberId, challengeId, amountCentavos: 100_000, code: '123456' })).toBe('expired');
  });

  it('answers expired once the code’s five minutes have passed, by the clock given', async () => {
    const { job, code } = await issue({ phone: '+639170000005' });
    const later = new Date(Date.now() + 5 * 60_000 + 1_000);
    expect(await verify({ memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: later })).toBe('expired');
    expect(await system.redis.exists(system.keys.otpChallenge(job.memberId))).toBe(0);
  });

  it('keeps the challenge record for five minutes and no longer', async () => {
    const { job } = await issue({ phone: '+639170000006' });
    const ttl = await system.redis.pttl(system.keys.otpChallenge(job.memberId));
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it('makes a newer challenge replace the older one, whose code stops working', async () => {
    const memberId = otpJobFor().memberId;
    const first = await issue({ memberId, phone: '+639170000007' });
    // Another number for the second text, so each code is read from its own outbox entry.
    const second = await issue({ memberId, phone: '+639170000017', amountCentavos: 200_000 });
    expect(await verify({ memberId, challengeId: first.job.challengeId, amountCentavos: first.job.amountCentavos, code: first.code })).toBe('expired');
    expect(await verify({ memberId, challengeId: second.job.challengeId, amountCentavos: 200_000, code: second.code })).toBe('ok');
  });

  it('texts one code however often the same challenge is enqueued', async () => {
    const job = otpJobFor({ phone: '+639170000008' });
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await codeFromOutbox(system.redis, system.keys, job.phone);
    await eventually('the OTP job to complete', async () => ((await system.otpQueue.getJobState(job.challengeId)) === 'completed' ? true : undefined));
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    expect(await system.otpQueue.getJobState(job.challengeId)).toBe('completed');
    expect(await readSmsOutbox(system.redis, system.keys, { to: job.phone })).toHaveLength(1);
  });

  it('records a successful delivery for the admin console', async () => {
    const { job } = await issue({ phone: '+639170000009' });
    const status = await eventually('the delivery status', () => readOtpDeliveryStatus(system.redis, system.keys, job.memberId).then((found) => found ?? undefined));
    expect(status).toMatchObject({ challengeId: job.challengeId, state: 'sent', sentTo: '+63•••••0009', failures: 0, lastError: null });
    expect(status.lastSentAt).not.toBeNull();
  });
});

describe('withdrawal OTP with a short lifetime', () => {
  let system: TestWorkers;
  beforeAll(async () => {
    system = await startTestWorkers({ otpTtlMs: 300 });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('lets Redis expire an unused code, which then verifies as expired', async () => {
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    const code = await codeFromOutbox(system.redis, system.keys, job.phone);
    await eventually('the challenge to expire', async () => ((await system.redis.exists(system.keys.otpChallenge(job.memberId))) === 0 ? true : undefined), 2_000);
    // A clock before the stored expiry proves it is Redis's TTL that removed the record.
    const verification = await verifyOtp(system.redis, system.keys, { memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: new Date(0), secret: TEST_OTP_SECRET });
    expect(verification).toBe('expired');
  });

  it('keeps a right code until the step it confirms is recorded, when asked to', async () => {
    const job = otpJobFor({ phone: '+639170000011' });
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    const code = await codeFromOutbox(system.redis, system.keys, job.phone);
    const input = { memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: new Date(), secret: TEST_OTP_SECRET, keepUntilConsumed: true };
    expect((await verifyOtpChallenge(system.redis, system.keys, input)).outcome).toBe('ok');
    // The append that would have recorded the withdrawal failed: the same code still works.
    expect((await verifyOtpChallenge(system.redis, system.keys, input)).outcome).toBe('ok');
    await consumeChallenge(system.redis, system.keys.otpChallenge(job.memberId), job.challengeId);
    expect((await verifyOtpChallenge(system.redis, system.keys, input)).outcome).toBe('expired');
  });
});

describe('bank-change code, from enqueued job to verified code', () => {
  let system: TestWorkers;
  beforeAll(async () => {
    system = await startTestWorkers();
  });
  afterAll(async () => {
    await system?.close();
  });

  it('texts a code naming the new account masked, which confirms that account and no other', async () => {
    const memberId = randomUUID();
    const challengeId = randomUUID();
    const phone = '+639170000021';
    const binding = bankChangeBinding('BDO', '5555557890');
    await system.otpQueue.add(JOB_NAMES.sendBankChangeCode, { challengeId, memberId, phone, binding, destination: 'BDO ••••7890' }, otpJobOptions(challengeId));
    const text = await eventually('a bank change code', async () => (await readSmsOutbox(system.redis, system.keys, { to: phone }))[0]);
    const code = /bank change code is (\d{6})\./.exec(text.body)?.[1];
    expect(text.body).toBe(`Your Honeylend bank change code is ${code}. It sets your bank account to BDO ••••7890 and expires in 5 minutes. If you did not ask for this, do not share it and call us.`);
    const check = (accountNumber: string) => verifyBankChangeCode(system.redis, system.keys, { memberId, binding: bankChangeBinding('BDO', accountNumber), code: code!, now: new Date(), secret: TEST_OTP_SECRET });
    expect((await check('9999999999')).outcome).toBe('invalid');
    expect((await check('5555557890')).outcome).toBe('ok');
    expect((await check('5555557890')).outcome).toBe('expired');
    // A withdrawal code is kept apart: the bank-change code never lands in the withdrawal slot.
    expect(await system.redis.exists(system.keys.otpChallenge(memberId))).toBe(0);
  });
});
