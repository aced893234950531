import { randomUUID } from 'node:crypto';
import {
  accountOpening,
  addDays,
  businessDateOf,
  dayCloseEvents,
  DEFAULT_LATE_CHARGE_SETTINGS,
  evolveLoanAccount,
  startOfBusinessDate,
  streams,
  type AdminLoanAnswer,
  type BusinessDateAnswer,
  type DomainEvent,
  type LoanAccount,
  type LoanAccountEvent,
} from '@honeylend/contracts';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { runLoad, type LoadResult } from '../load.js';
import type { AdminSignedInAnswer, MovedBusinessDateAnswer } from '../answers.js';
import { JsonClient } from '../http.js';
import { runOpenLoop, type OpenLoopResult } from '../openLoop.js';
import { pool, toNewEvents, type SeededMember } from '../seedMembers.js';
import { seedingUrl, type RunningSystem } from '../system.js';

/** ₱100,000 over 12 months at 2.5 %, as every servicing loan of the bench is. */
const PRINCIPAL_CENTAVOS = 10_000_000;

/**
 * A loan applied for the day before `openedOn` and disbursed on `openedOn` (its schedule counts from
 * then), its first instalment paid on its due date when `paysFirst` and that date has come, and its
 * days closed through `through`: its stream as the API and the day close would leave it.
 */
function activeLoanEvents(loanId: string, memberId: string, loanNumber: number, openedOn: string, through = openedOn, paysFirst = false): DomainEvent[] {
  const appliedAt = new Date(`${addDays(openedOn, -1)}T10:00:00+08:00`).toISOString();
  const opening = accountOpening({ loanId, memberId, principalCentavos: PRINCIPAL_CENTAVOS, monthlyRateBps: 250, termMonths: 12 }, DEFAULT_LATE_CHARGE_SETTINGS, openedOn, startOfBusinessDate(openedOn));
  const events: DomainEvent[] = [
    {
      type: 'LoanApplied',
      data: { loanId, memberId, loanNumber: `LN-${openedOn.slice(0, 4)}-${String(loanNumber).padStart(7, '0')}`, amountCentavos: PRINCIPAL_CENTAVOS, termMonths: 12, monthlyRateBps: 250, purpose: 'Bench', appliedAt },
    },
  ];
  let account: LoanAccount | null = null;
  const record = (event: LoanAccountEvent) => {
    events.push(event);
    account = evolveLoanAccount(account, event);
  };
  const closeThrough = (date: string) => dayCloseEvents(account!, date).forEach(record);
  record({ type: 'LoanAccountOpened', data: opening });
  const first = opening.schedule[0];
  if (paysFirst && first.dueDate <= through) {
    closeThrough(addDays(first.dueDate, -1));
    record({
      type: 'RepaymentReceived',
      data: {
        loanId,
        memberId,
        repaymentId: randomUUID(),
        receiptNumber: `OR-${loanNumber}-001`,
        amountCentavos: first.amountCentavos,
        channel: 'bank',
        source: 'admin',
        reference: `BENCH-${loanNumber}`,
        valueDate: first.dueDate,
        businessDate: first.dueDate,
        receivedAt: startOfBusinessDate(first.dueDate),
      },
    });
  }
  closeThrough(through);
  return events;
}

async function withSeedingStore<T>(system: RunningSystem, work: (store: EventStore) => Promise<T>): Promise<T> {
  const store = await openEventStore(seedingUrl(system.eventStoreUrl));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Waits until the API answers the read model of the last seeded loan. */
async function untilProjected(system: RunningSystem, token: string, loanId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await system.client.call<AdminLoanAnswer>('GET', `/api/admin/loans/${loanId}`, { token });
    if (res.status === 200 && res.body?.status === 'active') return;
    if (Date.now() > deadline) throw new Error(`the seeded loans were not projected within ${timeoutMs / 1000} s (${res.status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function adminToken(system: RunningSystem, password: string): Promise<string> {
  const res = await system.client.call<AdminSignedInAnswer>('POST', '/api/auth/admin-login', { body: { username: 'bench-admin', password } });
  if (res.status !== 200) throw new Error(`bench admin could not sign in: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export interface DayCloseResult {
  loans: number;
  /** Loans seeded with their first instalment paid (the rest of those past their first due date are in arrears). */
  paidOnTime: number;
  seedSeconds: number;
  projectSeconds: number;
  /** The close of one business day over every active loan (POST /api/dev/business-date, which runs it and answers when done). */
  closeSeconds: number;
  changed: number;
  events: number;
  /** The same day closed again: nothing to record. */
  againSeconds: number;
  againEvents: number;
}

/**
 * Scenario 8: the day close of `count` active loans. They were all closed through yesterday, with
 * due dates spread so that, as on any business day, about one in thirty falls due today,
 * about one in fourteen is past due (some inside the grace days, some charged) and the rest are in
 * good standing; the close of today runs through the dev business date, timed end to end.
 */
export async function dayCloseScenario(system: RunningSystem, options: { count: number; adminPassword: string }, log: (line: string) => void): Promise<DayCloseResult> {
  const token = await adminToken(system, options.adminPassword);
  const today = (await system.client.call<BusinessDateAnswer>('GET', '/api/dev/business-date', { token })).body.date;
  const yesterday = addDays(today, -1);
  const loanIds = Array.from({ length: options.count }, () => randomUUID());
  const seedStarted = Date.now();
  let paidOnTime = 0;
  await withSeedingStore(system, (store) =>
    pool(loanIds, 16, async (loanId, index) => {
      // Disbursed 30–89 days before yesterday: the first instalment falls due two months (about 60 days)
      // after, so loans fall due from 30 days ago to 29 days ahead, spread evenly. Those whose first due
      // date is already past paid it on its due date, except one in four (the book's arrears).
      const openedDaysBefore = 30 + (index % 60);
      const paysFirst = openedDaysBefore > 61 && index % 4 !== 0;
      if (paysFirst) paidOnTime += 1;
      const events = activeLoanEvents(loanId, randomUUID(), 5_000_000 + index, addDays(yesterday, -openedDaysBefore), yesterday, paysFirst);
      await store.append(streams.loan(loanId), toNewEvents(events, { actorId: 'bench', correlationId: randomUUID() }), { expectedRevision: 'no_stream' });
    }),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  log(`  seeded ${options.count.toLocaleString('en')} active loans in ${seedSeconds.toFixed(1)} s`);
  const projectStarted = Date.now();
  await untilProjected(system, token, loanIds.at(-1)!, 600_000);
  const projectSeconds = (Date.now() - projectStarted) / 1000;
  log(`  projected in ${projectSeconds.toFixed(1)} s; closing ${today}`);

  const close = async () => {
    const started = performance.now();
    const res = await system.client.call<MovedBusinessDateAnswer>('POST', '/api/dev/business-date', { token, body: { date: today }, timeoutMs: 600_000 });
    if (res.status !== 200) throw new Error(`the day close answered ${res.status}: ${JSON.stringify(res.body)}`);
    return { seconds: (performance.now() - started) / 1000, closed: res.body.closed };
  };
  // The loans were closed through yesterday: closing today opens one business day for each.
  const first = await close();
  if (first.closed.loans < options.count) throw new Error(`the day close saw ${first.closed.loans} active loans of ${options.count}`);
  const again = await close();
  return {
    loans: first.closed.loans,
    paidOnTime,
    seedSeconds,
    projectSeconds,
    closeSeconds: first.seconds,
    changed: first.closed.changed,
    events: first.closed.events,
    againSeconds: again.seconds,
    againEvents: again.closed.events,
  };
}

export interface RepaymentsResult extends LoadResult {
  connections: number;
  statuses: Record<string, number>;
  loans: number;
  /**
   * CPU milliseconds each of the system's processes (api, projections, workers) used per answered
   * repayment during the load, less what it uses idle (measured just before): the cost of a
   * repayment whatever else the machine is doing, and whatever the rate it reached.
   */
  cpuMsPerRepayment: Record<string, number>;
}

/** Gives each seeded member an active loan (₱100,000 over 12 months, disbursed today), through the store port. */
export async function seedMemberLoans(system: RunningSystem, members: SeededMember[], token: string): Promise<string[]> {
  const today = businessDateOf(new Date().toISOString());
  const loanIds = members.map(() => randomUUID());
  await withSeedingStore(system, (store) =>
    pool(members, 16, async (member, index) => {
      const loanId = loanIds[index];
      await store.append(streams.member(member.id), toNewEvents([{ type: 'LoanApplicationOpened', data: { memberId: member.id, loanId, openedAt: new Date().toISOString() } }], { actorId: member.id }), {
        expectedRevision: 'any',
      });
      await store.append(streams.loan(loanId), toNewEvents(activeLoanEvents(loanId, member.id, 9_000_000 + index, today), { actorId: 'bench' }), { expectedRevision: 'no_stream' });
    }),
  );
  await untilProjected(system, token, loanIds.at(-1)!, 120_000);
  return loanIds;
}

/** The k-th wallet repayment of both loops: ₱5 (no loan or wallet runs out) on the seeded loans in turn, each by its own borrower. */
function walletRepaymentRequest(loanIds: string[], tokens: readonly string[], k: number): { path: string; token: string; body: { amount: number } } {
  const i = k % loanIds.length;
  return { path: `/api/loans/${loanIds[i]}/repayments`, token: tokens[i], body: { amount: 5 } };
}

/**
 * Scenario 9: wallet repayments (POST /api/loans/:id/repayments, ₱5 each, so no loan or wallet runs
 * out), spread over every seeded member's own loan, `connections` in flight for `durationSeconds`.
 * Each is a debit on the member's stream and a receipt on the loan's, answered once the read models
 * have it (read-your-writes).
 */
export async function walletRepaymentsScenario(system: RunningSystem, loanIds: string[], { connections, durationSeconds }: { connections: number; durationSeconds: number }): Promise<RepaymentsResult> {
  const { tokens } = system;
  let sent = 0;
  const statuses: Record<string, number> = {};
  // What each process spends doing nothing (timers, polls, the change feed's blocking read), so it is not charged to the repayments.
  const IDLE_SECONDS = 3;
  const idleFrom = system.children.map((child) => child.cpuSeconds());
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const cpuBefore = system.children.map((child) => child.cpuSeconds());
  const loadStarted = performance.now();
  const result = await runLoad({
    url: system.baseUrl,
    connections,
    durationSeconds,
    next: () => {
      const { path, token, body } = walletRepaymentRequest(loanIds, tokens, sent++);
      return { method: 'POST', path, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) };
    },
    onResponse: (status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const answered = Math.max(1, result.total);
  const cpuMsPerRepayment: Record<string, number> = {};
  system.children.forEach((child, i) => {
    const [idleStart, before, after] = [idleFrom[i], cpuBefore[i], child.cpuSeconds()];
    if (idleStart === null || idleStart === undefined || before === null || before === undefined || after === null) return;
    const idlePerSecond = (before - idleStart) / IDLE_SECONDS;
    const spent = Math.max(0, after - before - idlePerSecond * loadSeconds);
    cpuMsPerRepayment[child.name] = Math.round((spent * 1000 * 100) / answered) / 100;
  });
  return { ...result, connections, statuses, loans: loanIds.length, cpuMsPerRepayment };
}

export interface OpenRepaymentsResult extends OpenLoopResult {
  loans: number;
}

/**
 * Scenario 8, open loop: wallet repayments sent at a fixed rate (issue 15's 500/s) whatever the
 * system does, round robin over the seeded loans, each ack timed from when it was due to leave.
 * The closed loop above finds the ceiling (its p99 is the queue its own in-flight requests build at
 * saturation); this answers what a borrower waits at the target rate.
 */
export async function openLoopRepaymentsScenario(system: RunningSystem, loanIds: string[], { rate, durationSeconds }: { rate: number; durationSeconds: number }): Promise<OpenRepaymentsResult> {
  const { tokens } = system;
  const client = new JsonClient(system.baseUrl, 256);
  try {
    const result = await runOpenLoop({
      ratePerSecond: rate,
      durationSeconds,
      send: async (k) => {
        const { path, token, body } = walletRepaymentRequest(loanIds, tokens, k);
        const res = await client.call('POST', path, { token, body, timeoutMs: 30_000 });
        return { ok: res.status === 201, status: res.status };
      },
    });
    return { ...result, loans: loanIds.length };
  } finally {
    client.close();
  }
}
