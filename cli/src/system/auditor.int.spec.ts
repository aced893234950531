import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type AuditJobUpdate } from '@honeylend/contracts';
import { AuditCheckpointer, CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, signCheckpoint } from '@honeylend/eventstore';
import { generateKeyPairSync } from 'node:crypto';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { acceptDisclosure, adminLogin, borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken } from '../testing/admins.js';
import { moveBusinessDate, payFromWallet } from '../testing/servicing.js';

let system: TestSystem;
let mainToken: string;
const auditorCredentials = { email: `auditor.${Date.now()}@honeylend.test`, password: 'Ledger-Check#2026' };
let auditor: { id: string; token: string };
let member: { id: string; phone: string; token: string; fullName: string; loanId: string };

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  const created = await system.request('POST', '/api/admin/create-admin', {
    token: mainToken,
    body: { ...auditorCredentials, fullName: 'Ana Auditor', role: 'auditor' },
  });
  if (created.status !== 201) throw new Error(`create auditor: ${created.status} ${JSON.stringify(created.body)}`);
  auditor = { id: created.body.id, token: await adminLogin(system, auditorCredentials.email, auditorCredentials.password) };
  const fullName = 'Rosario Dimaculangan';
  const { borrower, loan } = await borrowerWithPendingLoan(system, fullName);
  const approved = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: mainToken, body: { status: 'approved' } });
  if (approved.status !== 200) throw new Error(`approval: ${approved.status}`);
  await acceptDisclosure(system, borrower.token, loan.id);
  await pendingWithdrawal(system, borrower, 1500);
  // A repayment from the wallet (issue 15): the book counts it and takes its principal off what is owed.
  await payFromWallet(system, { borrower, loanId: loan.id, loanNumber: loan.loanNumber, dueDates: [] }, 5_000);
  member = { ...borrower, fullName, loanId: loan.id };
});
afterAll(() => system?.stop());

const asAuditor = (method: string, path: string, body?: unknown) => system.request(method, path, { token: auditor.token, body });

describe('the auditor role', () => {
  it('is created by the main admin, signs in like staff, and is refused every change with 403', async () => {
    const me = (await system.request('GET', '/api/admin/all-users', { token: mainToken })).body.find((entry: any) => entry.id === auditor.id);
    expect(me).toMatchObject({ role: 'auditor', fullName: 'Ana Auditor', isMainAdmin: false });
    const login = await system.request('POST', '/api/auth/admin-login', { body: { username: auditorCredentials.email, password: auditorCredentials.password } });
    expect(login.body.user).toMatchObject({ role: 'auditor', isAdmin: true });
    const head = await system.store.headPosition();
    for (const [method, path, body] of [
      ['PUT', `/api/admin/users/${member.id}`, { creditScore: 850 }],
      ['POST', `/api/admin/users/${member.id}/balance-adjustments`, { amount: 100, reason: 'Auditor tries to pay' }],
      ['PUT', `/api/admin/loans/${member.loanId}`, { status: 'active' }],
      ['POST', '/api/admin/create-admin', { email: 'x@honeylend.test', password: 'Planted-Admin#2026' }],
      ['POST', '/api/admin/notifications', { userId: member.id, title: 'Hi', message: 'Hello' }],
      ['DELETE', `/api/admin/users/${member.id}`, undefined],
      ['POST', '/api/auth/register', { phone: '09171110000', password: 'Sampaguita#2026', fullName: 'Via Auditor' }],
    ] as const) {
      const res = await asAuditor(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code, `${method} ${path}`).toBe('READ_ONLY');
    }
    expect((await asAuditor('POST', '/api/loans', { amount: 80_000, purpose: 'Not mine to ask', termMonths: 12 })).status).toBe(403);
    expect(await system.store.headPosition()).toBe(head);
  });

  it('keeps its role: the main admin edits its name but cannot turn it into an admin, and a plain admin cannot create one', async () => {
    const renamed = await system.request('PATCH', `/api/admin/users/${auditor.id}`, { token: mainToken, body: { fullName: 'Ana B. Auditor' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ fullName: 'Ana B. Auditor', role: 'auditor' });
    const promoted = await system.request('PATCH', `/api/admin/users/${auditor.id}`, { token: mainToken, body: { role: 'admin' } });
    expect(promoted.status).toBe(400);
    expect(promoted.body.message).toBe('An account keeps the role it was created with; add a new account for another role.');
    const bad = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: 'y@honeylend.test', password: 'Some-Password#2026', role: 'superadmin' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Role must be admin or auditor');
  });
});

describe('masked personal data', () => {
  it('shows an auditor a name initial and the last four digits, nothing of documents, free text or the member’s address', async () => {
    const view = await asAuditor('GET', `/api/admin/users/${member.id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ fullName: 'R.', idFrontUrl: null, idBackUrl: null, selfieUrl: null, address: '••••' });
    expect(view.body.phone).toBe(`••••${member.phone.slice(-4)}`);
    expect(view.body.bankAccountNumber).toMatch(/^••••\d{4}$/);
    const reads = await Promise.all(
      [
        '/api/admin/users',
        '/api/admin/loans',
        `/api/admin/loans/${member.loanId}`,
        '/api/admin/withdrawals',
        '/api/admin/withdrawals/export',
        `/api/admin/audit/${streams.member(member.id)}`,
        '/api/admin/events?limit=1000',
        '/api/audit/events?limit=500',
        `/api/audit/streams/${streams.member(member.id)}`,
      ].map((path) => asAuditor('GET', path)),
    );
    for (const res of reads) {
      expect(res.status).toBe(200);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      expect(text).not.toContain('Dimaculangan');
      expect(text).not.toContain(member.phone);
      expect(text).not.toContain('1234567890');
    }
    const profile = (await system.request('GET', '/api/user/profile', { token: member.token })).body;
    const fileId = /\/api\/files\/([0-9a-f-]{36})/.exec(profile.idFrontUrl)![1];
    expect((await asAuditor('GET', `/api/files/${fileId}`)).body.code).toBe('MASKED');
    // The main admin sees everything as it is.
    expect((await system.request('GET', `/api/admin/users/${member.id}`, { token: mainToken })).body.fullName).toBe(member.fullName);
  });

  it('unmasks one member for that auditor only after a reason, and the unmasking is on the log', async () => {
    const noReason = await asAuditor('POST', '/api/audit/unmask', { memberId: member.id, reason: 'why' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('Say why you need to see this member (at least 5 characters)');
    const unmasked = await asAuditor('POST', '/api/audit/unmask', { memberId: member.id, reason: 'Sampling loan files for the Q4 audit' });
    expect(unmasked.status).toBe(201);
    expect(unmasked.body.member).toMatchObject({ fullName: member.fullName, phone: member.phone });
    expect(Date.parse(unmasked.body.unmaskedUntil) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await asAuditor('GET', `/api/admin/users/${member.id}`)).body.fullName).toBe(member.fullName);
    const profile = (await system.request('GET', '/api/user/profile', { token: member.token })).body;
    const fileId = /\/api\/files\/([0-9a-f-]{36})/.exec(profile.idFrontUrl)![1];
    expect((await asAuditor('GET', `/api/files/${fileId}`)).status).toBe(200);
    const recorded = (await system.store.readStream(streams.auditAccess(auditor.id))).find((event) => event.type === 'AuditorUnmasked');
    expect(recorded).toMatchObject({ type: 'AuditorUnmasked', data: { auditorId: auditor.id, memberId: member.id, reason: 'Sampling loan files for the Q4 audit' }, metadata: { actorId: auditor.id } });
    expect((await system.request('POST', '/api/audit/unmask', { token: mainToken, body: { memberId: member.id, reason: 'The main admin sees all' } })).status).toBe(403);
  });
});

describe('the log for auditors', () => {
  it('combines filters and pages with a cursor, each event with its hash', async () => {
    const all = await system.store.readAll({ limit: 100_000 });
    const memberEvents = all.filter((event) => event.stream === streams.member(member.id));
    const seen: any[] = [];
    for (let from = 0; ;) {
      const page = await asAuditor('GET', `/api/audit/events?stream=${streams.member(member.id)}&limit=3&from=${from}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.events);
      if (page.body.next === null) break;
      from = page.body.next;
    }
    expect(seen.map((event) => event.position)).toEqual(memberEvents.map((event) => event.position));
    expect(seen.every((event) => /^[0-9a-f]{64}$/.test(event.hash))).toBe(true);
    const byType = await asAuditor('GET', `/api/audit/events?type=LoanApplied&actor=${member.id}`);
    expect(byType.body.events.map((event: any) => event.stream)).toEqual([streams.loan(member.loanId)]);
    const first = memberEvents[0];
    const window = await asAuditor('GET', `/api/audit/events?since=${encodeURIComponent(first.createdAt)}&until=${encodeURIComponent(first.createdAt)}&stream=${streams.member(member.id)}`);
    expect(window.body.events.map((event: any) => event.position)).toContain(first.position);
    for (const [query, message] of [
      ['limit=0', 'limit is a whole number from 1 to 500'],
      ['since=yesterday', 'since is a date and time, e.g. 2026-11-23T08:00:00+08:00'],
      ['since=2026-11-23T00:00:00Z&until=2026-11-22T00:00:00Z', 'until must not be before since'],
      ['stream=no%20such', 'Name a stream, e.g. member-<id>'],
    ]) {
      const res = await asAuditor('GET', `/api/audit/events?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe(message);
    }
  });

  it('exports the filtered log as NDJSON or CSV with each event’s hash, and records the export', async () => {
    const stream = streams.loan(member.loanId);
    const shown = (await asAuditor('GET', `/api/audit/events?stream=${stream}`)).body.events;
    const ndjson = await asAuditor('GET', `/api/audit/export?stream=${stream}&format=ndjson`);
    expect(ndjson.status).toBe(200);
    const lines = String(typeof ndjson.body === 'string' ? ndjson.body : JSON.stringify(ndjson.body) + '\n')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(shown);
    const csv = await asAuditor('GET', `/api/audit/export?stream=${stream}&format=csv`);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(String(csv.body).split('\n')[0]).toContain('"position","stream","revision","type"');
    expect(String(csv.body)).toContain(shown[0].hash);
    const exports = (await system.store.readStream(streams.auditAccess(auditor.id))).filter((event) => event.type === 'AuditExportMade');
    expect(exports.map((event) => event.data)).toEqual([
      // The withdrawals report the masked-data test downloaded.
      expect.objectContaining({ format: 'csv', filters: { report: 'withdrawals' }, masked: true, madeBy: auditor.id }),
      expect.objectContaining({ format: 'ndjson', filters: { stream }, masked: true, madeBy: auditor.id }),
      expect.objectContaining({ format: 'csv', filters: { stream }, masked: true }),
    ]);
  });

  it('answers a stream as of a revision or a time, folded with the decider, with the state before', async () => {
    const stream = streams.loan(member.loanId);
    const events = await system.store.readStream(stream);
    const at0 = await asAuditor('GET', `/api/audit/streams/${stream}?asOf=0`);
    expect(at0.body).toMatchObject({ aggregate: 'loan', revisions: events.length, asOf: { revision: 0, position: events[0].position } });
    expect(at0.body.state).toMatchObject({ exists: true, status: 'pending', amountCentavos: 8_000_000 });
    expect(at0.body.previous).toEqual({ exists: false });
    const latest = await asAuditor('GET', `/api/audit/streams/${stream}`);
    // Approval disbursed and opened the loan's account: the loan is active, one repayment received.
    expect(latest.body.state).toMatchObject({ status: 'active', account: { principalCentavos: 8_000_000 } });
    expect(latest.body.state.account.transactions).toHaveLength(1);
    const byTime = await asAuditor('GET', `/api/audit/streams/${stream}?asOf=${encodeURIComponent(events[0].createdAt)}`);
    expect(byTime.body.asOf.revision).toBeGreaterThanOrEqual(0);
    const before = await asAuditor('GET', `/api/audit/streams/${stream}?asOf=2000-01-01T00:00:00Z`);
    expect(before.body).toMatchObject({ asOf: { revision: -1, position: null }, events: [], state: { exists: false }, previous: null });
    expect((await asAuditor('GET', `/api/audit/streams/${stream}?asOf=99`)).status).toBe(404);
    // The member's state: the auditor unmasked this member above; the password hash is never shown.
    const memberState = await system.request('GET', `/api/audit/streams/${streams.member(member.id)}`, { token: mainToken });
    expect(memberState.body.state).toMatchObject({ exists: true, passwordHash: '[redacted]', profile: { fullName: member.fullName } });
    // A plain admin's History drawer reads streams here too, but not the rest of the workspace.
    const officer = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: `officer.${randomUUID()}@honeylend.test`, password: 'Loan-Officer#2026' } });
    const officerToken = await adminLogin(system, officer.body.username, 'Loan-Officer#2026');
    expect((await system.request('GET', `/api/audit/streams/${stream}`, { token: officerToken })).status).toBe(200);
    expect((await system.request('GET', '/api/audit/events', { token: officerToken })).status).toBe(403);
  });
});

describe('checkpoints and verification', () => {
  it('lists the signed checkpoints, verifies the log as a job with progress over the socket, and names a forged checkpoint', async () => {
    await new AuditCheckpointer({ store: system.store, signingKey: system.auditSigningKey }).tick();
    expect((await asAuditor('GET', '/api/audit/verifications/latest')).body).toEqual({ latest: null });
    const checkpoints = await asAuditor('GET', '/api/audit/checkpoints');
    expect(checkpoints.body.checkpoints.length).toBeGreaterThan(0);
    expect(checkpoints.body.checkpoints.every((checkpoint: any) => checkpoint.trusted)).toBe(true);
    expect(checkpoints.body.publicKeys).toEqual([checkpoints.body.checkpoints[0].publicKey]);

    const socket: Socket = io(system.baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token: auditor.token }, reconnection: false, forceNew: true });
    const updates: AuditJobUpdate[] = [];
    socket.on('audit.job', (update: AuditJobUpdate) => updates.push(update));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    try {
      const started = await asAuditor('POST', '/api/audit/verify', {});
      expect(started.status).toBe(202);
      const jobId: string = started.body.jobId;
      const result = await until(async () => {
        const res = await asAuditor('GET', `/api/audit/verify/${jobId}`);
        return res.body.status === 'running' ? null : res.body;
      });
      const head = await system.store.headPosition();
      expect(result).toMatchObject({ jobId, status: 'passed', verifiedTo: head, checkedEvents: head, firstBad: null, error: null });
      expect(result.checkedCheckpoints).toBeGreaterThan(0);
      await until(async () => (updates.some((update) => update.jobId === jobId && update.state === 'completed') ? true : null));
      expect(updates.find((update) => update.jobId === jobId && update.state === 'completed')!.verify).toMatchObject({ status: 'passed' });
      expect((await asAuditor('GET', '/api/audit/verifications/latest')).body.latest).toMatchObject({ jobId, status: 'passed' });

      // Someone who can append but holds no key tries to vouch for the log.
      const [last] = await system.store.readChain!({ from: head - 1, limit: 1 });
      const forged = signCheckpoint(generateKeyPairSync('ed25519').privateKey, { position: head, hash: last.hash, time: new Date().toISOString() });
      await system.store.append(CHECKPOINT_STREAM, [{ id: randomUUID(), type: CHECKPOINT_EVENT_TYPE, data: { ...forged } }], { expectedRevision: 'any' });
      const again = await asAuditor('POST', '/api/audit/verify', {});
      const failed = await until(async () => {
        const res = await asAuditor('GET', `/api/audit/verify/${again.body.jobId}`);
        return res.body.status === 'running' ? null : res.body;
      });
      expect(failed).toMatchObject({ status: 'failed', verifiedTo: head - 1, firstBad: { position: head, reason: 'forged-checkpoint' } });
    } finally {
      socket.disconnect();
    }
    expect((await asAuditor('GET', '/api/audit/verify/verify-00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await asAuditor('POST', '/api/audit/verify', { from: 5, to: 2 })).body.message).toBe('to must not be before from');
  });
});

describe('the book as of a date', () => {
  it('folds the whole book at the last position of that moment, as a job, then from the cache', async () => {
    const asOf = new Date().toISOString();
    const first = await until(async () => {
      const res = await asAuditor('GET', `/api/audit/book?asOf=${encodeURIComponent(asOf)}`);
      if (res.status === 202) {
        expect(res.body).toMatchObject({ status: 'running', jobId: expect.stringMatching(/^book-\d+$/) });
        return null;
      }
      return res;
    });
    expect(first.status).toBe(200);
    const { book, position } = first.body;
    expect(position).toBe(await positionAt(asOf));
    // What the borrower's own loan page says is still owed: the same fold of the same account.
    const owed = Math.round((await system.request('GET', `/api/loans/${member.loanId}`, { token: member.token })).body.outstanding.principal * 100);
    expect(owed).toBeLessThan(8_000_000);
    expect(book.figures.loans.byStatus.active).toEqual({ count: 1, principalCentavos: 8_000_000, outstandingPrincipalCentavos: owed });
    expect(book.figures.loans.outstandingPrincipalCentavos).toBe(owed);
    expect(book.figures.repayments).toEqual({ count: 1, amountCentavos: 500_000 });
    expect(book.figures.loans.disbursed).toEqual({ count: 1, amountCentavos: 8_000_000 });
    expect(book.figures.withdrawals.pending).toEqual({ count: 1, amountCentavos: 150_000 });
    expect(book.figures.wallets.totalBalanceCentavos).toBe(8_000_000 - 150_000 - 500_000);
    expect(book.figures.members).toMatchObject({ total: 1, active: 1 });
    expect(book.series.at(-1)).toMatchObject({ walletsCentavos: 8_000_000 - 150_000 - 500_000, outstandingPrincipalCentavos: owed, repaymentsCentavos: 500_000 });
    const cached = await asAuditor('GET', `/api/audit/book?asOf=${encodeURIComponent(asOf)}`);
    expect(cached.status).toBe(200);
    expect(cached.body.book).toEqual(book);
    const early = await asAuditor('GET', '/api/audit/book?asOf=2001-01-01');
    const empty =
      early.status === 200
        ? early
        : await until(async () => {
            const res = await asAuditor('GET', '/api/audit/book?asOf=2001-01-01');
            return res.status === 200 ? res : null;
          });
    expect(empty.body).toMatchObject({ position: 0, book: { events: 0, figures: { members: { total: 0 }, wallets: { totalBalanceCentavos: 0 } } } });
    expect((await asAuditor('GET', '/api/audit/book?asOf=soon')).body.message).toBe('asOf is a date (2026-11-23: the end of that day in Manila) or a date and time');
  });
});

describe('servicing for auditors', () => {
  it('shows an overdue borrower masked in the collections list to an auditor who has not unmasked them', async () => {
    const loan = (await system.request('GET', `/api/loans/${member.loanId}`, { token: member.token })).body;
    const due = new Date(`${loan.schedule[1].dueDate}T00:00:00Z`);
    await moveBusinessDate(system, mainToken, new Date(due.getTime() + 5 * 86_400_000).toISOString().slice(0, 10));
    const rowFor = async (token: string) => {
      const answer = await system.request('GET', '/api/admin/collections', { token });
      expect(answer.status).toBe(200);
      return answer.body.items.find((row: { id: string }) => row.id === member.loanId);
    };
    const colleague = await createAdmin(system, mainToken, 'auditor');
    expect((await rowFor(colleague.token)).borrower).toEqual({ fullName: 'R.', phone: `••••${member.phone.slice(-4)}` });
    // The first auditor unmasked this member above (for 30 minutes); the main admin sees everyone.
    expect((await rowFor(auditor.token)).borrower).toEqual({ fullName: member.fullName, phone: member.phone });
    expect((await rowFor(mainToken)).borrower).toEqual({ fullName: member.fullName, phone: member.phone });
  });
});

async function positionAt(time: string): Promise<number> {
  return (await system.store.readAll({ limit: 100_000 })).filter((event) => event.createdAt <= time).at(-1)?.position ?? 0;
}

async function until<T>(check: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
