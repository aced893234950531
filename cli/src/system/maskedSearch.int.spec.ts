import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { verifyBorrower, type Borrower } from '../testing/borrowers.js';
import { acceptDisclosure, createAdmin, pendingWithdrawal, superadminToken, type TestAdmin } from '../testing/admins.js';

/**
 * Staff search over members' personal data (the member, loan and withdrawal lists and the
 * withdrawals report) as an auditor who has not unmasked a member: it may match only what the
 * auditor is shown (a name's initial, an email's first letter and domain, the last four digits of
 * a phone or account number), so probing a hidden number digit by digit learns nothing.
 */

/** The account number is the one the test helpers put on every member's profile. */
const VICTIM = { fullName: 'Rosario Dimaculangan', phone: '09175550123', email: 'rosario.dimaculangan@example.ph', account: '1234567890' };

let system: TestSystem;
let mainToken: string;
let officer: TestAdmin;
let auditor: TestAdmin;
let victim: Borrower & { loanNumber: string; withdrawalNumber: string };
/** A member the auditor never unmasks. */
let other: Borrower;

/** A verified borrower with the number and email we choose, an active loan and a pending withdrawal. */
async function member(fullName: string, phone: string, email: string): Promise<Borrower & { loanNumber: string; withdrawalNumber: string }> {
  const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName, privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
  if (registered.status !== 201) throw new Error(`registration: ${registered.status} ${JSON.stringify(registered.body)}`);
  const borrower: Borrower = { id: registered.body.user.id, phone: registered.body.user.phone, token: registered.body.token };
  await verifyBorrower(system, borrower);
  const withEmail = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { email } });
  if (withEmail.status !== 200) throw new Error(`email: ${withEmail.status} ${JSON.stringify(withEmail.body)}`);
  const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 } });
  if (loan.status !== 201) throw new Error(`loan: ${loan.status} ${JSON.stringify(loan.body)}`);
  const approved = await system.request('PUT', `/api/admin/loans/${loan.body.id}`, { token: officer.token, body: { status: 'approved' } });
  if (approved.status !== 200) throw new Error(`approval: ${approved.status} ${JSON.stringify(approved.body)}`);
  await acceptDisclosure(system, borrower.token, loan.body.id);
  const withdrawal = await pendingWithdrawal(system, borrower, 1_000);
  return { ...borrower, loanNumber: loan.body.loanNumber, withdrawalNumber: withdrawal.withdrawalNumber };
}

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
  auditor = await createAdmin(system, mainToken, 'auditor');
  victim = await member(VICTIM.fullName, VICTIM.phone, VICTIM.email);
  // Others on the lists, so that a search that matched everything or nothing would show; one shares the
  // victim's last four digits, and every member has the same account number (the test helpers' own).
  await member('Bayani Agbayani', '09281112222', 'bayani@example.ph');
  other = await member('Rodel Ramos', '09391110123', 'rodel.ramos@example.ph');
});
afterAll(() => system?.stop());

type List = 'users' | 'loans' | 'withdrawals';
type Row = Record<string, any>;

async function search(token: string, list: List, text: string): Promise<Row[]> {
  const res = await system.request('GET', `/api/admin/${list}?${new URLSearchParams({ search: text, pageSize: '100' }).toString()}`, { token });
  expect(res.status, `${list}?search=${text}`).toBe(200);
  return res.body.items;
}

const ids = (rows: Row[]) => rows.map((row) => row.id as string).sort();
const memberIdOf = (list: List, row: Row): string => (list === 'users' ? row.id : row.memberId);

/** The text of a row as the caller is shown it, field by field, as the search box is documented to match it. */
function shownText(list: List, row: Row): string {
  const person = list === 'users' ? row : (row.member ?? {});
  const own = list === 'loans' ? [row.memberId, row.loanNumber, row.status] : list === 'withdrawals' ? [row.memberId, row.withdrawalNumber, row.bankName, row.bankAccountNumber, row.status] : [];
  return [...own, person.fullName ?? '', person.email ?? '', person.phone ?? ''].join('\n').toLowerCase();
}

/** What a search for `text` over the shown (masked) rows alone finds: every word in the row's shown text. */
function searchOverShown(list: List, shown: Row[], text: string): string[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return ids(shown.filter((row) => words.every((word) => shownText(list, row).includes(word))));
}

/**
 * The attack as reported: from the digits the list shows (the last four), try each digit in
 * front of what is known and keep the one the search still finds the member with.
 */
async function probeLeftward(token: string, list: List, known: string, memberId: string): Promise<{ learned: string; searches: number }> {
  let learned = known;
  let searches = 0;
  for (let extended = true; extended && learned.length < 13;) {
    extended = false;
    for (const digit of '0123456789+') {
      searches++;
      if ((await search(token, list, `${digit}${learned}`)).some((row) => memberIdOf(list, row) === memberId)) {
        learned = `${digit}${learned}`;
        extended = true;
        break;
      }
    }
  }
  return { learned, searches };
}

const LISTS: List[] = ['users', 'loans', 'withdrawals'];

describe('staff search over personal data, for a viewer who sees it masked', () => {
  it("an auditor probing a masked member's phone, name, email and account number learns nothing hidden: each search finds what a search over the masked text finds", async () => {
    const probes = [
      // The phone, digit by digit from the front, in both written forms, and whole.
      ...[...VICTIM.phone].map((_, i) => VICTIM.phone.slice(0, i + 1)),
      '+63917',
      '+639175550123',
      '9175550123',
      // From the back: the last four are shown, the digits before them are not.
      '0123',
      '50123',
      '550123',
      // The name and the email's mailbox beyond their first letter, and the email whole.
      'ro',
      'rosario',
      'dimaculangan',
      'rosario dimaculangan',
      'rosario.d',
      VICTIM.email,
      'example.ph',
      // The account number: shown as ••••7890.
      '7890',
      '67890',
      '1234',
      VICTIM.account,
    ];
    for (const list of LISTS) {
      const shown = await search(auditor.token, list, '');
      expect(shown.length, `${list} as the auditor`).toBeGreaterThanOrEqual(3);
      // The auditor is shown the victim masked: initial, last four.
      const victimRow = shown.find((row) => memberIdOf(list, row) === victim.id)!;
      expect(shownText(list, victimRow)).not.toContain('rosario');
      for (const probe of probes) {
        expect(ids(await search(auditor.token, list, probe)), `${list}?search=${probe} as the auditor`).toEqual(searchOverShown(list, shown, probe));
      }
      // What the auditor is shown still finds the member.
      expect((await search(auditor.token, list, '0123')).some((row) => memberIdOf(list, row) === victim.id)).toBe(true);
    }
    // The reported attack: from the last four, digit by digit.
    for (const list of LISTS) {
      const phone = await probeLeftward(auditor.token, list, '0123', victim.id);
      expect(phone.learned, `the phone probed through ${list} in ${phone.searches} searches`).toBe('0123');
    }
    const account = await probeLeftward(auditor.token, 'withdrawals', '7890', victim.id);
    expect(account.learned, `the account number probed in ${account.searches} searches`).toBe('7890');
    // The withdrawals report answers the same search: no row of the victim's for their hidden number.
    const report = await system.request('GET', `/api/admin/withdrawals/export?search=${encodeURIComponent(VICTIM.account)}`, { token: auditor.token });
    expect(report.status).toBe(200);
    expect(String(report.body)).not.toContain(victim.withdrawalNumber);
    // Nothing above unmasked anyone.
    const unmaskings = (await system.store.readAll({ from: 0, limit: 100_000 })).filter((event) => event.type === 'AuditorUnmasked');
    expect(unmaskings).toEqual([]);
  });

  it("a stream named by a masked member's phone answers an auditor as one that does not exist, by name and in the log's stream filter", async () => {
    const stream = `phone-${other.phone}`;
    const unused = 'phone-+639391110124';
    const read = (token: string, path: string) => system.request('GET', path, { token });
    for (const name of [stream, unused]) {
      for (const path of [`/api/admin/audit/${encodeURIComponent(name)}`, `/api/audit/streams/${encodeURIComponent(name)}`]) {
        const res = await read(auditor.token, path);
        expect(res.status, `${path} as the auditor`).toBe(404);
        expect(res.body.code).toBe('STREAM_NOT_FOUND');
      }
    }
    const filtered = await read(auditor.token, `/api/audit/events?stream=${encodeURIComponent(stream)}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.events).toEqual([]);
    const exported = await read(auditor.token, `/api/audit/export?stream=${encodeURIComponent(stream)}`);
    expect(exported.status).toBe(200);
    expect(String(exported.body ?? '').trim()).toBe('');
    // Staff who see the member read the stream.
    expect((await read(officer.token, `/api/admin/audit/${encodeURIComponent(stream)}`)).status).toBe(200);
    expect((await read(officer.token, `/api/audit/streams/${encodeURIComponent(stream)}`)).status).toBe(200);
    expect((await read(mainToken, `/api/audit/events?stream=${encodeURIComponent(stream)}`)).body.events.length).toBeGreaterThan(0);
  });

  it('after the auditor unmasks the member (an event), the search matches their full phone, name, email and account number', async () => {
    const head = await system.store.headPosition();
    const unmask = await system.request('POST', '/api/audit/unmask', { token: auditor.token, body: { memberId: victim.id, reason: 'Complaint 2026-118 about this account' } });
    expect(unmask.status).toBe(201);
    const recorded = (await system.store.readAll({ from: head, limit: 1000 })).filter((event) => event.type === 'AuditorUnmasked');
    expect(recorded.map((event) => event.data.memberId)).toEqual([victim.id]);
    for (const list of LISTS) {
      for (const probe of [VICTIM.phone, '+639175550123', '550123', 'rosario dimaculangan', 'rosario.d']) {
        expect(
          (await search(auditor.token, list, probe)).map((row) => memberIdOf(list, row)),
          `${list}?search=${probe} as the auditor, unmasked`,
        ).toContain(victim.id);
      }
    }
    expect((await search(auditor.token, 'withdrawals', VICTIM.account)).map((row) => row.withdrawalNumber)).toEqual([victim.withdrawalNumber]);
    expect((await system.request('GET', `/api/admin/audit/${encodeURIComponent(`phone-${victim.phone}`)}`, { token: auditor.token })).status).toBe(200);
    // Still masked for the auditor: the others, whose hidden digits stay unsearchable.
    expect(await search(auditor.token, 'users', '09391110123')).toEqual([]);
  });

  it('an admin, who sees members unmasked, still finds a member by full phone, name, email and account number', async () => {
    for (const list of LISTS) {
      for (const probe of [VICTIM.phone, '+63 917 555 0123', '550123', 'rosario dimaculangan', VICTIM.email]) {
        expect(
          (await search(officer.token, list, probe)).map((row) => memberIdOf(list, row)),
          `${list}?search=${probe} as an admin`,
        ).toEqual([victim.id]);
      }
    }
    expect((await search(officer.token, 'withdrawals', '67890')).map((row) => row.withdrawalNumber).sort()).toEqual((await search(officer.token, 'withdrawals', '')).map((row) => row.withdrawalNumber).sort());
    expect((await search(officer.token, 'loans', victim.loanNumber)).map((row) => row.memberId)).toEqual([victim.id]);
  });
});
