import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { WrongExpectedVersion, type EventStore } from '@honeylend/eventstore';
import { handleCommand, memberDecider } from '@honeylend/command-api';
import { DomainError } from '../../../command-api/src/platform/commands/decider.js';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower } from '../../../cli/src/testing/borrowers.js';
import { withdrawalCodeFor } from '../../../cli/src/testing/admins.js';
import { reportFigure } from '../support/figures.js';

/**
 * The spec's minimum withdrawal is ₱1,000, so the "₱1,000.00 balance, 50 × ₱600" becomes
 * ₱1,500.00 and 50 × ₱1,000: one fits, a second would overdraw by ₱500.
 *
 * A member holds one live code at a time (a newer code replaces the older one), so 50 distinct
 * valid codes cannot exist at once through the API. The check therefore attacks both gates:
 * 50 concurrent HTTP withdrawals carrying the same valid code, and 50 concurrent withdrawal
 * commands — each with its own challenge, as if each had passed the code check — raced on the
 * member's stream, where only the decider and the stream's expected revision stand in the way.
 */
const BALANCE_CENTAVOS = 1_500_00;
const AMOUNT_PESOS = 1_000;
const RACERS = 50;

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

/** The real store, counting the appends that lost a race (each one is decided again). */
function countingConflicts(store: EventStore): { store: EventStore; conflicts: () => number } {
  let conflicts = 0;
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'append' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          if (error instanceof WrongExpectedVersion) conflicts += 1;
          throw error;
        }
      };
    },
  });
  return { store: counted, conflicts: () => conflicts };
}

describe('double spend', () => {
  it(`${RACERS} concurrent withdrawals over HTTP with one valid code: exactly one is paid`, async () => {
    const borrower = await registerBorrower(system);
    await addBankAccount(system, borrower);
    await disburse(system, borrower, BALANCE_CENTAVOS);
    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: AMOUNT_PESOS } });
    expect(otp.status).toBe(202);
    const code = await withdrawalCodeFor(system, borrower);
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () =>
        system.request('POST', '/api/withdrawals', {
          token: borrower.token,
          body: { amount: AMOUNT_PESOS, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code, challengeId: otp.body.challengeId },
        }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201).length;
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(accepted).toBe(1);
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.filter((e) => e.type === 'WithdrawalRequested')).toHaveLength(1);
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.user?.balance ?? profile.body.balance).toBe(500);
    reportFigure({ check: '5 double spend', name: `HTTP: accepted of ${RACERS} concurrent withdrawals sharing one valid code`, value: accepted, target: '1' });
  });

  it(`${RACERS} concurrent withdrawal commands, each with its own challenge: exactly one is recorded, the rest refused or retried out`, async () => {
    const borrower = await registerBorrower(system);
    await addBankAccount(system, borrower);
    await disburse(system, borrower, BALANCE_CENTAVOS);
    const { store, conflicts } = countingConflicts(system.store);
    const outcomes = await Promise.all(
      Array.from({ length: RACERS }, async (_, i) => {
        try {
          await handleCommand(
            store,
            streams.member(borrower.id),
            memberDecider,
            {
              type: 'RequestWithdrawal',
              memberId: borrower.id,
              withdrawalId: randomUUID(),
              withdrawalNumber: `WD-RACE-${String(i).padStart(4, '0')}`,
              amountCentavos: AMOUNT_PESOS * 100,
              bankName: 'BPI',
              bankAccountNumber: '1234567890',
              challengeId: randomUUID(),
              now: new Date().toISOString(),
            },
            { actorId: borrower.id, correlationId: randomUUID() },
          );
          return 'accepted';
        } catch (error) {
          if (error instanceof DomainError && error.code === 'INSUFFICIENT_FUNDS') return 'insufficient funds';
          if (error instanceof WrongExpectedVersion) return 'lost every race';
          throw error;
        }
      }),
    );
    const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
    reportFigure({
      check: '5 double spend',
      name: `commands: accepted / insufficient funds / lost every race (conflicts retried) of ${RACERS}`,
      value: `${count('accepted')} / ${count('insufficient funds')} / ${count('lost every race')} (${conflicts()})`,
      target: 'accepted 1',
    });
    expect(count('accepted')).toBe(1);
    expect(conflicts()).toBeGreaterThan(0);
    const events = await system.store.readStream(streams.member(borrower.id));
    const requested = events.filter((e) => e.type === 'WithdrawalRequested');
    expect(requested).toHaveLength(1);
    const state = events.reduce((s, e) => memberDecider.evolve(s, e as never), memberDecider.initialState());
    expect(state.exists && state.balanceCentavos).toBe(BALANCE_CENTAVOS - AMOUNT_PESOS * 100);
  });
});
