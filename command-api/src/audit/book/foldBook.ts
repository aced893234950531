import { loanPosition, manilaDate, parseDomainEvent, type Book, type BookFigures, type BookSeriesPoint, type DomainEvent } from '@honeylend/contracts';
import type { EventStore, RecordedEvent } from '@honeylend/eventstore';
import { memberDecider } from '../../members/decide.js';
import type { MemberEvent, MemberState } from '../../members/member.js';
import { loanDecider } from '../../lending/decide.js';
import type { LoanEvent, LoanState } from '../../lending/loan.js';

/**
 * The whole book as of one position of the log (issue 16): every member's and every loan's
 * state folded with their deciders' own evolve — the numbers the system itself decided with —
 * and summed (loans with the servicing fold of their account: outstanding principal, repayments
 * received). Each aggregate's share of the totals is kept, so an event changes the totals by the
 * difference it made to its aggregate, and the book at the end of each Manila day costs nothing
 * extra: that is the series the chart draws.
 */

/** What one aggregate adds to the book's totals, by name (absent = 0). */
type Shares = Map<string, number>;

const SERIES_DAYS = 366;
const PAGE = 5_000;
/** The fold runs in an API process: it lets requests in between every this many events. */
const YIELD_EVERY = 1_000;

function add(shares: Shares, key: string, amount: number): void {
  if (amount !== 0) shares.set(key, (shares.get(key) ?? 0) + amount);
}

function memberShares(state: MemberState): Shares {
  const shares: Shares = new Map();
  if (!state.exists) {
    if (state.deleted) add(shares, 'members.closed', 1);
    return shares;
  }
  add(shares, 'members.total', 1);
  add(shares, `members.${state.status}`, 1);
  add(shares, 'wallets.balance', state.balanceCentavos);
  for (const withdrawal of state.withdrawals.values()) {
    const kind = withdrawal.status === 'completed' ? 'paid' : withdrawal.status;
    add(shares, `withdrawals.${kind}.count`, 1);
    add(shares, `withdrawals.${kind}.amount`, withdrawal.amountCentavos);
  }
  return shares;
}

/**
 * A loan's share: its status, principal and what of it is still owed, and the repayments it
 * received. A loan with a servicing account (issue 15) owes what the account's own fold
 * (`loanPosition`, the allocation the borrower's screen and the decider use) leaves unpaid; one
 * disbursed before accounts existed owes its principal until it is completed.
 */
function loanShares(state: LoanState, disbursed: ReadonlySet<string>): Shares {
  const shares: Shares = new Map();
  if (!state.exists) return shares;
  let outstanding = disbursed.has(state.loanId) && state.status !== 'completed' ? state.amountCentavos : 0;
  if (state.account) {
    const position = loanPosition(state.account);
    outstanding = position.outstanding.principalCentavos;
    const received = position.repayments.filter((repayment) => !repayment.reversed);
    add(shares, 'repayments.count', received.length);
    add(shares, 'repayments.amount', position.repaidCentavos);
  }
  add(shares, `loans.${state.status}.count`, 1);
  add(shares, `loans.${state.status}.principal`, state.amountCentavos);
  add(shares, `loans.${state.status}.outstanding`, outstanding);
  add(shares, 'loans.outstanding', outstanding);
  return shares;
}

class Totals {
  readonly values = new Map<string, number>();
  replace(before: Shares, after: Shares): void {
    for (const [key, amount] of before) this.values.set(key, (this.values.get(key) ?? 0) - amount);
    for (const [key, amount] of after) this.values.set(key, (this.values.get(key) ?? 0) + amount);
  }
  add(key: string, amount: number): void {
    this.values.set(key, (this.values.get(key) ?? 0) + amount);
  }
  get(key: string): number {
    return this.values.get(key) ?? 0;
  }
}

function figuresOf(totals: Totals): BookFigures {
  const byStatus: BookFigures['loans']['byStatus'] = {};
  for (const [key] of totals.values) {
    const match = /^loans\.(.+)\.count$/.exec(key);
    if (!match || totals.get(key) === 0) continue;
    const status = match[1];
    byStatus[status] = { count: totals.get(key), principalCentavos: totals.get(`loans.${status}.principal`), outstandingPrincipalCentavos: totals.get(`loans.${status}.outstanding`) };
  }
  const money = (kind: string) => ({ count: totals.get(`${kind}.count`), amountCentavos: totals.get(`${kind}.amount`) });
  return {
    members: { total: totals.get('members.total'), active: totals.get('members.active'), pending: totals.get('members.pending'), suspended: totals.get('members.suspended'), closed: totals.get('members.closed') },
    loans: { byStatus, outstandingPrincipalCentavos: totals.get('loans.outstanding'), disbursed: money('disbursed') },
    wallets: { totalBalanceCentavos: totals.get('wallets.balance') },
    withdrawals: { pending: money('withdrawals.pending'), paid: money('withdrawals.paid'), rejected: money('withdrawals.rejected') },
    repayments: money('repayments'),
    balanceAdjustments: { count: totals.get('adjustments.count'), netCentavos: totals.get('adjustments.net') },
  };
}

function seriesPoint(date: string, position: number, totals: Totals): BookSeriesPoint {
  return {
    date,
    position,
    walletsCentavos: totals.get('wallets.balance'),
    outstandingPrincipalCentavos: totals.get('loans.outstanding'),
    withdrawalsPendingCentavos: totals.get('withdrawals.pending.amount'),
    withdrawalsPaidCentavos: totals.get('withdrawals.paid.amount'),
    repaymentsCentavos: totals.get('repayments.amount'),
    members: totals.get('members.total'),
  };
}

export interface FoldBookOptions {
  /** Called after every page with the position reached. */
  onProgress?: (position: number, upTo: number) => void;
  signal?: AbortSignal;
}

/** The book as of `upTo` (inclusive), folded from the start of the log. */
export async function foldBook(store: EventStore, upTo: number, { onProgress, signal }: FoldBookOptions = {}): Promise<Book> {
  const members = new Map<string, MemberState>();
  const loans = new Map<string, LoanState>();
  /** Loans whose principal reached a wallet (LoanDisbursed on the member's stream). */
  const disbursed = new Set<string>();
  const totals = new Totals();
  const series: BookSeriesPoint[] = [];
  let day: string | null = null;
  /** When the Manila day of `day` ends, as an ISO time (compared as text with each event's). */
  let nextMidnight = '';
  let last: RecordedEvent | null = null;
  let count = 0;

  /** What each aggregate adds to the totals now: an event replaces its aggregate's share, so each share is worked out once. */
  const memberShareOf = new Map<string, Shares>();
  const loanShareOf = new Map<string, Shares>();
  const NONE: Shares = new Map();
  const replaceLoanShares = (loanId: string, loan: LoanState) => {
    const after = loanShares(loan, disbursed);
    totals.replace(loanShareOf.get(loanId) ?? NONE, after);
    loanShareOf.set(loanId, after);
  };

  const apply = (recorded: RecordedEvent, event: DomainEvent) => {
    if (recorded.stream.startsWith('member-')) {
      const memberId = recorded.stream.slice('member-'.length);
      const after = memberDecider.evolve(members.get(memberId) ?? memberDecider.initialState(), event as MemberEvent);
      members.set(memberId, after);
      const shares = memberShares(after);
      totals.replace(memberShareOf.get(memberId) ?? NONE, shares);
      memberShareOf.set(memberId, shares);
      if (event.type === 'LoanDisbursed') {
        disbursed.add(event.data.loanId);
        totals.add('disbursed.count', 1);
        totals.add('disbursed.amount', event.data.amountCentavos);
        const loan = loans.get(event.data.loanId);
        if (loan) replaceLoanShares(event.data.loanId, loan);
      } else if (event.type === 'BalanceAdjusted') {
        totals.add('adjustments.count', 1);
        totals.add('adjustments.net', event.data.amountCentavos);
      }
    } else if (recorded.stream.startsWith('loan-')) {
      const loanId = recorded.stream.slice('loan-'.length);
      const after = loanDecider.evolve(loans.get(loanId) ?? loanDecider.initialState(), event as LoanEvent);
      loans.set(loanId, after);
      replaceLoanShares(loanId, after);
    }
  };

  // The next page is read while this one is folded: the database and the fold do not wait for each other.
  const read = (from: number) => {
    const reading = store.readAll({ from, limit: Math.min(PAGE, upTo - from) });
    reading.catch(() => undefined); // awaited below; one left behind when the fold stops must not be an unhandled rejection
    return reading;
  };
  let next = upTo > 0 ? read(0) : null;
  while (next) {
    if (signal?.aborted) throw new Error('the book was stopped');
    const page = await next;
    if (page.length === 0) break;
    const reached = page[page.length - 1].position;
    next = reached < upTo ? read(reached) : null;
    for (const recorded of page) {
      if (recorded.position > upTo) break;
      if (count % YIELD_EVERY === YIELD_EVERY - 1) await new Promise<void>((resolve) => setImmediate(resolve));
      // Times never go backwards in the log: the day is worked out again only once an event passes the next midnight.
      if (recorded.createdAt >= nextMidnight) {
        if (day !== null && last) series.push(seriesPoint(day, last.position, totals));
        day = manilaDate(new Date(recorded.createdAt));
        nextMidnight = new Date(Date.parse(`${day}T00:00:00+08:00`) + 86_400_000).toISOString();
      }
      if (recorded.stream.startsWith('member-') || recorded.stream.startsWith('loan-')) apply(recorded, parseDomainEvent(recorded.type, recorded.data));
      last = recorded;
      count++;
    }
    onProgress?.(Math.min(reached, upTo), upTo);
  }
  if (day !== null && last) series.push(seriesPoint(day, last.position, totals));
  return { position: last?.position ?? 0, lastEventAt: last?.createdAt ?? null, events: count, figures: figuresOf(totals), series: series.slice(-SERIES_DAYS) };
}
