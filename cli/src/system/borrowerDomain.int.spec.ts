import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { handleCommand, memberDecider } from '@honeylend/command-api';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, latestOtpFor, registerBorrower, verifyBorrower } from '../testing/borrowers.js';
import { pixelFloodPng, pngImage } from '../testing/images.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

describe('identity documents', () => {
  it('stores a real image under a random name and serves it to its owner through the signed url', async () => {
    const borrower = await registerBorrower(system);
    const res = await system.upload('/api/upload', { bytes: pngImage(), name: 'id-front.png', type: 'image/png' }, borrower.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: expect.stringMatching(/^\/api\/files\/[0-9a-f-]{36}\?expires=\d+&sig=/), contentType: 'image/png' });
    expect(readdirSync(system.uploadDir)).toEqual([res.body.fileId]);
    const image = await fetch(system.baseUrl + res.body.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(pngImage())).toBe(true);
  });

  it('refuses a script renamed .png, an oversize file and a pixel flood, storing nothing', async () => {
    const borrower = await registerBorrower(system);
    const before = readdirSync(system.uploadDir).length;
    const script = await system.upload('/api/upload', { bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'), name: 'photo.png', type: 'image/png' }, borrower.token);
    expect(script.status).toBe(415);
    expect(script.body).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE', message: 'Only JPEG, PNG or WebP images are accepted' });
    const oversize = Buffer.concat([pngImage(), Buffer.alloc(8 * 1024 * 1024)]);
    const big = await system.upload('/api/upload', { bytes: oversize, name: 'big.png', type: 'image/png' }, borrower.token);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'FILE_TOO_LARGE' });
    const flood = await system.upload('/api/upload', { bytes: pixelFloodPng(), name: 'flood.png', type: 'image/png' }, borrower.token);
    expect(flood.status).toBe(422);
    expect(flood.body.code).toBe('IMAGE_TOO_LARGE');
    expect(readdirSync(system.uploadDir).length).toBe(before);
    const events = await system.store.readStream(streams.member(borrower.id));
    // Registration and its consent to the privacy notice; nothing from the refused uploads.
    expect(events.map((e) => e.type)).toEqual(['MemberRegistered', 'ConsentGiven']);
  });

  it('serves a document only to its owner: another borrower gets 403, nobody without credentials', async () => {
    const owner = await registerBorrower(system);
    const other = await registerBorrower(system);
    const { body } = await system.upload('/api/upload', { bytes: pngImage(), name: 'id.png', type: 'image/png' }, owner.token);
    const bare = `/api/files/${body.fileId}`;
    expect((await system.request('GET', bare)).status).toBe(401);
    expect((await system.request('GET', bare, { token: other.token })).status).toBe(403);
    expect((await system.request('GET', `${bare}?expires=9999999999&sig=forged`)).status).toBe(401);
    expect((await fetch(`${system.baseUrl}${bare}`, { headers: { Authorization: `Bearer ${owner.token}` } })).status).toBe(200);
    // Another member's upload cannot become your document.
    const steal = await system.request('PUT', '/api/user/profile', { token: other.token, body: { idFrontUrl: body.url } });
    expect(steal.status).toBe(404);
    expect(steal.body.code).toBe('DOCUMENT_NOT_FOUND');
  });

  it('marks the member verified once personal information and all three documents are in', async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower);
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body).toMatchObject({ personalInfoComplete: true, documentsComplete: true, verified: true, idFrontUrl: expect.stringContaining('/api/files/') });
  });
});

describe('loans', () => {
  it('refuses an unverified member with the spec message', async () => {
    const borrower = await registerBorrower(system);
    const res = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80000, purpose: 'Tuition fees', termMonths: 12 } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'VERIFICATION_REQUIRED', message: 'You need to complete your account verification before applying for a loan.' });
  });

  it('answers each loan rule with the spec wording', async () => {
    const borrower = await registerBorrower(system);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 70000, purpose: 'Tuition', termMonths: 12 }, 'amount', 'Minimum loan amount is ₱80,000'],
      [{ amount: 4_010_000, purpose: 'Tuition', termMonths: 12 }, 'amount', 'Maximum loan amount is ₱4,000,000'],
      [{ amount: 85000, purpose: 'Tuition', termMonths: 12 }, 'amount', 'Loan amounts go in steps of ₱10,000'],
      [{ amount: 80000, purpose: 'ab', termMonths: 12 }, 'purpose', 'Please describe the purpose of the loan'],
      [{ amount: 80000, purpose: 'Tuition', termMonths: 5 }, 'termMonths', 'Minimum term is 6 months'],
      [{ amount: 80000, purpose: 'Tuition', termMonths: 49 }, 'termMonths', 'Maximum term is 48 months'],
    ];
    for (const [body, field, message] of cases) {
      const res = await system.request('POST', '/api/loans', { token: borrower.token, body });
      expect(res.status).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
  });

  it('accepts one application from a verified member, with a readable number, schedule and disclosure; a second is refused', async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower);
    const res = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80000, purpose: 'Sari-sari store stock', termMonths: 12 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      loanNumber: expect.stringMatching(/^LN-\d{4}-\d{6}$/),
      status: 'pending',
      amount: 80000,
      termMonths: 12,
      interestRate: 2.5,
      monthlyPayment: 8666.66,
      disclosure: { financeCharge: 24000, totalRepayable: 104000, nominalMonthlyRatePercent: 2.5 },
    });
    expect(res.body.schedule).toHaveLength(12);
    expect(res.body.disclosure.effectiveAnnualRatePercent).toBeGreaterThan(30);
    const list = await system.request('GET', '/api/loans/user', { token: borrower.token });
    expect(list.body).toEqual([res.body]);
    const second = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 90000, purpose: 'More stock', termMonths: 6 } });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('LOAN_EXISTS');
  });

  it('numbers loans without collisions when many are applied for at once', async () => {
    const borrowers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => registerBorrower(system, `Borrower ${i}`)));
    for (const borrower of borrowers) await verifyBorrower(system, borrower);
    const answers = await Promise.all(borrowers.map((b) => system.request('POST', '/api/loans', { token: b.token, body: { amount: 100000, purpose: 'Motorcycle', termMonths: 24 } })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.loanNumber)).size).toBe(6);
  });
});

describe('withdrawals with a server-side OTP', () => {
  it('refuses below ₱1,000 and more than the balance with the spec messages', async () => {
    const borrower = await registerBorrower(system);
    await addBankAccount(system, borrower);
    const small = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 999 } });
    expect(small.status).toBe(400);
    expect(small.body.message).toBe('Minimum withdrawal amount is ₱1,000');
    const broke = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(broke.status).toBe(400);
    expect(broke.body.message).toBe('Insufficient funds - Unavailable to request a withdrawal');
  });

  it('sends a code, accepts it once for its amount, holds the amount, and lists the withdrawal with the account masked', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 5_000_000);
    await addBankAccount(system, borrower);
    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 2500 } });
    expect(otp.status).toBe(202);
    expect(otp.body).toMatchObject({ sentTo: `+63•••••${borrower.phone.slice(-4)}`, expiresAt: expect.any(String) });
    expect(JSON.stringify(otp.body)).not.toMatch(/\b\d{6}\b/);
    const code = await latestOtpFor(system, borrower);

    const wrongAmount = await system.request('POST', '/api/withdrawals', {
      token: borrower.token,
      body: { amount: 2600, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code },
    });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body.message).toBe('Invalid OTP code');

    const res = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2500, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ withdrawalNumber: expect.stringMatching(/^WD-\d{4}-\d{6}$/), amount: 2500, bankAccountNumber: '••••7890', status: 'pending' });

    const reused = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2500, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code } });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('OTP_EXPIRED');

    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.balance).toBe(47_500);
    const list = await system.request('GET', '/api/withdrawals', { token: borrower.token });
    expect(list.body).toEqual([res.body]);
  });

  it('answers a code that is not 6 digits with the spec message', async () => {
    const borrower = await registerBorrower(system);
    const res = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, bankName: 'BPI', bankAccountNumber: '1234567890', otp: '12345' } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields.otp).toBe('OTP must be exactly 6 digits');
  });

  it('sends at most 3 codes per member in 15 minutes', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 500_000);
    await addBankAccount(system, borrower);
    for (let i = 0; i < 3; i++) {
      expect((await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } })).status).toBe(202);
    }
    const fourth = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('OTP_RESEND_LIMIT');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    const requested = (await system.store.readStream(streams.member(borrower.id))).filter((e) => e.type === 'WithdrawalOtpRequested');
    expect(requested).toHaveLength(3);
  });

  it('dies after 5 wrong codes: even the right code is refused afterwards', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 500_000);
    await addBankAccount(system, borrower);
    await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    const code = await latestOtpFor(system, borrower);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, bankName: 'BPI', bankAccountNumber: '1234567890', otp: wrong } });
      expect(res.body.code).toBe('OTP_INVALID');
    }
    const right = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code } });
    expect(right.status).toBe(400);
    expect(right.body.code).toBe('OTP_EXHAUSTED');
  });

  it('keeps the code out of the event log, the stored job data, the answers and the logs', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 500_000);
    await addBankAccount(system, borrower);
    await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1500 } });
    const code = await latestOtpFor(system, borrower);
    // Wait until the job is fully done, so its stored data is in its final state.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const eventLog = JSON.stringify(await system.store.readAll({ limit: 100_000 }));
    expect(eventLog).not.toContain(code);
    const jobKeys = await system.redis.keys(`${system.keyPrefix}bull*`);
    expect(jobKeys.length).toBeGreaterThan(0);
    for (const key of jobKeys) {
      const type = await system.redis.type(key);
      const content =
        type === 'hash'
          ? await system.redis.hgetall(key)
          : type === 'list'
            ? await system.redis.lrange(key, 0, -1)
            : type === 'string'
              ? await system.redis.get(key)
              : type === 'zset'
                ? await system.redis.zrange(key, 0, -1)
                : type === 'stream'
                  ? await system.redis.xrange(key, '-', '+')
                  : [];
      expect(JSON.stringify(content), key).not.toContain(code);
    }
    expect(system.logLines.join('')).not.toContain(code);
  });

  it('never lets 20 concurrent withdrawals spend more than the balance', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 1_000_000);
    await addBankAccount(system, borrower); // ₱10,000
    // Each request carries its own confirmed challenge, as after 20 successful OTP checks.
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        handleCommand(
          system.store,
          streams.member(borrower.id),
          memberDecider,
          {
            type: 'RequestWithdrawal',
            memberId: borrower.id,
            withdrawalId: randomUUID(),
            withdrawalNumber: `WD-2026-9${String(i).padStart(5, '0')}`,
            amountCentavos: 300_000, // ₱3,000: together ₱60,000
            bankName: 'BPI',
            bankAccountNumber: '1234567890',
            challengeId: randomUUID(),
            now: new Date().toISOString(),
          },
          { actorId: borrower.id },
        ),
      ),
    );
    const accepted = attempts.filter((a) => a.status === 'fulfilled');
    expect(accepted).toHaveLength(3);
    // Only three appends can ever beat a request's read, so within its retries every loser sees the final balance.
    const refused = attempts.filter((a) => a.status === 'rejected').map((a) => a.reason as { code?: string });
    expect(refused.map((reason) => reason.code)).toEqual(Array(17).fill('INSUFFICIENT_FUNDS'));
    const events = await system.store.readStream(streams.member(borrower.id));
    const held = events.filter((e) => e.type === 'WithdrawalRequested').reduce((sum, e) => sum + (e.data.amountCentavos as number), 0);
    expect(held).toBe(accepted.length * 300_000);
    const lastPosition = events.at(-1)!.position;
    await system.api.deps.progress.waitFor(lastPosition);
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.balance).toBe(10_000 - accepted.length * 3_000);
    expect(profile.body.balance).toBeGreaterThanOrEqual(0);
  });
});

describe('exchange rates and notifications', () => {
  it('answers fallback rates, labelled, with no invented history, before any fetch succeeded', async () => {
    const res = await system.request('GET', '/api/rates');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ base: 'PHP', source: 'fallback', asOf: null, rates: { USD: 0.018, HKD: 0.141 } });
    for (const points of Object.values(res.body.history)) expect(points).toEqual([]);
  });

  it("lists a member's notifications, newest first, and only their own", async () => {
    const borrower = await registerBorrower(system);
    const other = await registerBorrower(system);
    for (const title of ['First', 'Second']) {
      await handleCommand(
        system.store,
        streams.member(borrower.id),
        memberDecider,
        { type: 'NotifyMember', memberId: borrower.id, notificationId: randomUUID(), title, message: `${title} message`, type_: 'loan_update', now: new Date().toISOString() },
        { actorId: 'test' },
      ).then((r) => system.api.deps.progress.waitFor(r.position!));
    }
    const mine = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(mine.body.map((n: { title: string }) => n.title)).toEqual(['Second', 'First']);
    expect(mine.body[0]).toMatchObject({ message: 'Second message', type: 'loan_update', read: false });
    expect((await system.request('GET', '/api/notifications', { token: other.token })).body).toEqual([]);
  });
});
