import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower, type Borrower } from '../../../cli/src/testing/borrowers.js';
import { withdrawalCodeFor } from '../../../cli/src/testing/admins.js';
import { reportFigure } from '../support/figures.js';
import { scaled } from '../support/scale.js';

// The API's clock runs this far ahead of the real one, so a code's five minutes can pass at once.
let clockOffsetMs = 0;
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(() => system?.stop());

const AMOUNT = 1_000;
const BANK = { bankName: 'BPI', bankAccountNumber: '1234567890' };
let acceptances = 0;
let attacks = 0;

async function fundedBorrower(): Promise<Borrower> {
  const borrower = await registerBorrower(system);
  await addBankAccount(system, borrower);
  await disburse(system, borrower, 5_000_00);
  return borrower;
}

async function challenge(borrower: Borrower, amount = AMOUNT, usedCodes: string[] = []): Promise<{ challengeId: string; code: string }> {
  const res = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount } });
  expect(res.status).toBe(202);
  const code = await withdrawalCodeFor(system, borrower, usedCodes);
  usedCodes.push(code);
  return { challengeId: res.body.challengeId, code };
}

const withdraw = (borrower: Borrower, body: { amount: number; otp: string; challengeId?: string }) => system.request('POST', '/api/withdrawals', { token: borrower.token, body: { ...BANK, ...body } });

/** Every refusal is a 400 naming the OTP field; anything else counts against the system. */
function tally(answer: { status: number; body: any }, expectedCode?: string) {
  attacks += 1;
  if (answer.status === 201) acceptances += 1;
  expect(answer.status).toBe(400);
  if (expectedCode) expect(answer.body.code).toBe(expectedCode);
}

const otherCode = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

describe('OTP attacks', () => {
  it('refuses every guess; the challenge dies after 5 wrong codes, even for the right one', async () => {
    const borrower = await fundedBorrower();
    const { challengeId, code } = await challenge(borrower);
    const guesses = scaled(200, 1_000);
    const answers: { status: number; body: any }[] = [];
    for (let start = 0; start < guesses; start += 25) {
      const batch = Array.from({ length: Math.min(25, guesses - start) }, (_, i) => withdraw(borrower, { amount: AMOUNT, otp: otherCode(code, start + i), challengeId }));
      answers.push(...(await Promise.all(batch)));
    }
    for (const answer of answers) tally(answer);
    expect(answers.filter((a) => a.body.code === 'OTP_INVALID')).toHaveLength(5);
    expect(answers.filter((a) => a.body.code === 'OTP_EXHAUSTED')).toHaveLength(guesses - 5);
    tally(await withdraw(borrower, { amount: AMOUNT, otp: code, challengeId }), 'OTP_EXHAUSTED');
  });

  it('refuses a correct code the second time, for another amount, and after it expired', async () => {
    const borrower = await fundedBorrower();
    const used: string[] = [];
    const first = await challenge(borrower, AMOUNT, used);
    expect((await withdraw(borrower, { amount: AMOUNT, otp: first.code, challengeId: first.challengeId })).status).toBe(201);
    // The spent challenge is named as used (issue 22: "already used — see your withdrawals"); refused all the same.
    tally(await withdraw(borrower, { amount: AMOUNT, otp: first.code, challengeId: first.challengeId }), 'OTP_ALREADY_USED');
    tally(await withdraw(borrower, { amount: AMOUNT, otp: first.code }), 'OTP_EXPIRED');

    const second = await challenge(borrower, AMOUNT, used);
    tally(await withdraw(borrower, { amount: AMOUNT + 1, otp: second.code, challengeId: second.challengeId }), 'OTP_INVALID');
    tally(await withdraw(borrower, { amount: 2 * AMOUNT, otp: second.code }), 'OTP_INVALID');

    const third = await challenge(borrower, AMOUNT, used);
    clockOffsetMs += 5 * 60_000 + 1_000;
    tally(await withdraw(borrower, { amount: AMOUNT, otp: third.code, challengeId: third.challengeId }), 'OTP_EXPIRED');
    // Back to real time: the workers stamp new codes by the real clock.
    clockOffsetMs = 0;
  });

  it('never lets a code of one member confirm another member’s withdrawal', async () => {
    const victim = await fundedBorrower();
    const attacker = await fundedBorrower();
    const attackersOwn = await challenge(attacker);
    const victims = await challenge(victim);
    // The attacker's own code and challenge, sent with the victim's token, and the victim's challenge id with the attacker's token.
    tally(await withdraw(victim, { amount: AMOUNT, otp: attackersOwn.code, challengeId: attackersOwn.challengeId }), 'OTP_EXPIRED');
    tally(await withdraw(attacker, { amount: AMOUNT, otp: victims.code, challengeId: victims.challengeId }), 'OTP_EXPIRED');
    expect((await withdraw(victim, { amount: AMOUNT, otp: victims.code, challengeId: victims.challengeId })).status).toBe(201);
  });

  afterAll(() => {
    reportFigure({ check: '4 OTP attacks', name: `acceptances in ${attacks} attacks`, value: acceptances, target: '0' });
  });
});
