import { createHash, randomInt, randomUUID } from 'node:crypto';
import {
  PRIVACY_NOTICE_VERSION,
  addDays,
  businessDateOf,
  disbursementSchedule,
  disclosureStatementText,
  loanPosition,
  pesosToCentavos,
  streams,
  type BusinessDate,
  type CompanyDetails,
  type LateChargeSettings,
} from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import {
  adminAccountDecider,
  approvalDecider,
  adminUsernameDecider,
  allocateNumber,
  companyDecider,
  firstReminderRunOf,
  handleCommand,
  hashPassword,
  lapseNotice,
  loadState,
  loanDecider,
  memberDecider,
  phoneReservationDecider,
  reminderCommands,
  reminderOpeningDays,
  type LoanCommand,
  type MemberCommand,
} from '@honeylend/command-api';
import { pngImage } from '../images/png.js';
import { BANKS, COUNTRIES_OF_WORK, GIVEN_NAMES, Picker, PLACES, PURPOSES, STREETS, SURNAMES, seededRandom } from './demoPeople.js';

/**
 * `lending seed`: a living demo written through the same deciders, number sequences and
 * servicing commands the API uses, with the times of the last `days` days — members registering,
 * completing their profiles, applying, being decided, accepting their Disclosure Statements,
 * repaying on time, late or early, and withdrawing. Nothing is appended that the API could not
 * have appended itself; only the clock is the seed's.
 */
export interface SeedOptions {
  store: EventStore;
  /** Where the identity documents' files go (the API's UPLOAD_DIR). */
  saveFile: (fileId: string, bytes: Uint8Array) => Promise<void>;
  now: Date;
  members: number;
  days: number;
  seed: number;
  monthlyRateBps: number;
  lateCharge: LateChargeSettings;
  /** Progress, one call per member written. */
  onMember?: (done: number, total: number) => void;
}

export interface SeedAccount {
  role: 'admin' | 'auditor';
  username: string;
  password: string | null;
}

export interface SeedSummary {
  members: number;
  verified: number;
  loansByStatus: Record<string, number>;
  repayments: number;
  withdrawalsByStatus: Record<string, number>;
  /** Made for this run, shared by the run's borrowers, printed once: never a password anyone could know beforehand. */
  borrowerPassword: string;
  /** A few borrowers to sign in as, one per kind of story. */
  borrowers: { story: string; phone: string; fullName: string }[];
  staff: SeedAccount[];
  /** Requests left waiting for a second admin (four eyes): the Approvals page has one to decide. */
  approvalsWaiting: number;
}

const DAY_MS = 86_400_000;
const CHANNELS = ['gcash', 'maya', 'bank', 'cash'] as const;

/** What happens to a member's loan in the demo; every status a loan can have is among them. */
type Story = 'none' | 'pending' | 'account_issue' | 'denied' | 'awaiting_acceptance' | 'lapsed' | 'on_time' | 'late' | 'paid_off';
const STORIES: readonly [Story, number][] = [
  ['none', 14],
  ['pending', 10],
  ['account_issue', 4],
  ['denied', 9],
  ['awaiting_acceptance', 4],
  ['lapsed', 3],
  ['on_time', 26],
  ['late', 16],
  ['paid_off', 14],
];
/** Days a story needs between the application and today (servicing stories need instalments to fall due). */
const DAYS_NEEDED: Record<Story, number> = { none: 0, pending: 1, account_issue: 2, denied: 2, awaiting_acceptance: 3, lapsed: 12, on_time: 70, late: 75, paid_off: 30 };

export async function seedDemo(options: SeedOptions): Promise<SeedSummary> {
  const { store, now } = options;
  const pick = new Picker(seededRandom(options.seed));
  const start = now.getTime() - options.days * DAY_MS;
  const today = businessDateOf(now.toISOString());
  const run = randomUUID();
  const system: EventMetadata = { actorId: 'seed', correlationId: `lending-seed:${run}`, causationId: `lending-seed:${run}` };
  const borrowerPassword = `Demo-${randomInt(1000, 10_000)}-${randomUUID().slice(0, 8)}`;
  const summary: SeedSummary = { members: 0, verified: 0, loansByStatus: {}, repayments: 0, withdrawalsByStatus: {}, borrowerPassword, borrowers: [], staff: [], approvalsWaiting: 0 };
  const count = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);

  const staff = await seedStaff(store, system, now, pick);
  summary.staff = staff.accounts;
  const officer: EventMetadata = { ...system, actorId: staff.officerId ?? 'seed' };
  const { state: companyState } = await loadState(store, streams.company, companyDecider);
  const lender: CompanyDetails | null = companyState.details;
  const passwordHash = await hashPassword(borrowerPassword);
  const png = pngImage();
  const pngSha = createHash('sha256').update(png).digest('hex');
  // A block of numbers of this run's own, so a --force run beside an earlier demo never reuses a phone.
  const phoneBase = pick.int(0, 8_999_000);
  const onMember = async (memberId: string, command: MemberCommand, metadata: EventMetadata = system) => handleCommand(store, streams.member(memberId), memberDecider, command, metadata);
  const onLoan = async (loanId: string, command: LoanCommand, metadata: EventMetadata = officer) => handleCommand(store, streams.loan(loanId), loanDecider, command, metadata);

  let waitingFor: { memberId: string; fullName: string } | null = null;
  for (let index = 0; index < options.members; index++) {
    const registeredAtMs = start + pick.random() * (options.days - 1) * DAY_MS;
    const at = (ms: number) => new Date(Math.min(ms, now.getTime() - 60_000)).toISOString();
    const memberId = randomUUID();
    const given = pick.one(GIVEN_NAMES);
    const surname = pick.one(SURNAMES);
    const fullName = `${given} ${surname}`;
    const phone = `+639${String(170_000_000 + phoneBase + index).padStart(9, '0')}`;
    const self: EventMetadata = { ...system, actorId: memberId };
    await handleCommand(store, streams.phone(phone), phoneReservationDecider, { type: 'ReservePhone', phone, memberId, now: at(registeredAtMs) }, self);
    const email = pick.chance(0.7) ? `${given}.${surname}`.toLowerCase().replace(/[^a-z.]/g, '') + `${pick.int(1, 99)}@example.ph` : null;
    // Marked as the demo's: the workers never text an invented person's number, which may be a stranger's.
    await onMember(memberId, { type: 'RegisterMember', memberId, phone, fullName, email, passwordHash, registeredBy: 'self', demo: true, now: at(registeredAtMs) }, self);
    // The registration form shows the privacy notice; a demo member accepted it (RA 10173 sec. 12).
    await onMember(memberId, { type: 'GiveConsent', memberId, noticeVersion: PRIVACY_NOTICE_VERSION, currentVersion: PRIVACY_NOTICE_VERSION, now: at(registeredAtMs) }, self);
    // They confirmed their number with the texted code, recorded on both streams as the API records
    // it: a number whose member confirmed it is never free for someone else to register.
    const confirmedAt = at(registeredAtMs + 5 * 60_000);
    await handleCommand(store, streams.phone(phone), phoneReservationDecider, { type: 'VerifyPhone', phone, memberId, holderConfirmed: false, now: confirmedAt }, self);
    await onMember(memberId, { type: 'VerifyPhone', memberId, phone, now: confirmedAt }, self);
    summary.members += 1;

    // Most complete their profile and upload their documents within a few days; some never do.
    const verified = pick.chance(0.85);
    const place = pick.one(PLACES);
    const bankName = pick.one(BANKS);
    const profileAtMs = registeredAtMs + pick.random() * 2 * DAY_MS;
    const profile = {
      address: `${pick.int(1, 999)} ${pick.one(STREETS)}, ${place.district}, ${place.city}, ${place.province}`,
      countryOfWork: pick.one(COUNTRIES_OF_WORK),
      monthlySalaryCentavos: pesosToCentavos(pick.int(15, 90) * 1000),
      referenceName: `${pick.one(GIVEN_NAMES)} ${surname}`,
      referencePhone: `09${pick.digits(9)}`,
      bankName,
      bankAccountNumber: bankName === 'GCash' || bankName === 'Maya' ? `09${pick.digits(9)}` : pick.digits(pick.int(10, 12)),
    };
    if (!verified) {
      if (pick.chance(0.5)) await onMember(memberId, { type: 'UpdateProfile', memberId, changes: { address: profile.address, bankName }, now: at(profileAtMs) }, self);
      options.onMember?.(index + 1, options.members);
      continue;
    }
    const documents: Record<'idFront' | 'idBack' | 'selfie', string> = { idFront: randomUUID(), idBack: randomUUID(), selfie: randomUUID() };
    for (const fileId of Object.values(documents)) {
      await options.saveFile(fileId, png);
      await onMember(memberId, { type: 'RecordUpload', memberId, fileId, contentType: 'image/png', sizeBytes: png.length, sha256: pngSha, uploadedBy: memberId, now: at(profileAtMs) }, self);
    }
    await onMember(memberId, { type: 'UpdateProfile', memberId, changes: profile, documents, now: at(profileAtMs + 60_000) }, self);
    summary.verified += 1;

    // The member's story, limited by how long ago they joined.
    let story = weighted(pick, STORIES);
    const appliedAtMs = profileAtMs + pick.random() * 3 * DAY_MS;
    const daysAgo = (now.getTime() - appliedAtMs) / DAY_MS;
    if (daysAgo < DAYS_NEEDED[story]) story = daysAgo >= DAYS_NEEDED.paid_off ? 'paid_off' : daysAgo >= 3 ? 'denied' : 'pending';
    if (story === 'none') {
      options.onMember?.(index + 1, options.members);
      continue;
    }
    if (summary.borrowers.length < 12 && !summary.borrowers.some((b) => b.story === story)) summary.borrowers.push({ story, phone, fullName });

    const loanId = randomUUID();
    const amount = pesosToCentavos(pick.int(8, 60) * 10_000);
    const termMonths = pick.one([6, 12, 12, 18, 24, 36]);
    const appliedAt = at(appliedAtMs);
    await onMember(memberId, { type: 'OpenLoanApplication', memberId, loanId, privacyNoticeVersion: PRIVACY_NOTICE_VERSION, now: appliedAt }, self);
    const loanNumber = await allocateNumber(store, 'LN', loanId, new Date(appliedAt), self);
    await onLoan(loanId, { type: 'ApplyForLoan', loanId, memberId, loanNumber, amountCentavos: amount, termMonths, monthlyRateBps: options.monthlyRateBps, purpose: pick.one(PURPOSES), now: appliedAt }, self);
    const notify = (title: string, message: string, ms: number) => onMember(memberId, { type: 'NotifyMember', memberId, notificationId: randomUUID(), title, message, type_: 'loan_update', now: at(ms) }, officer);
    const change = (to: string, message: string | null, ms: number) => onLoan(loanId, { type: 'ChangeLoanStatus', loanId, to, message, customStatuses: [], now: at(ms) });

    if (story === 'pending') {
      count(summary.loansByStatus, 'pending');
      options.onMember?.(index + 1, options.members);
      continue;
    }
    // Decided a day or two after the application; an offer awaiting acceptance was made in the last days.
    const decidedAtMs = story === 'awaiting_acceptance' ? Math.max(appliedAtMs + DAY_MS / 2, now.getTime() - pick.random() * 5 * DAY_MS) : appliedAtMs + (1 + pick.random()) * DAY_MS;
    if (story === 'account_issue') {
      const message = pick.one(['Your selfie is blurred. Please upload a clearer one.', 'Your ID front is cut off. Please upload it again.', 'Please add a reference we can reach.']);
      await change('account_issue', message, decidedAtMs);
      await notify(`Loan ${loanNumber} update`, message, decidedAtMs);
      count(summary.loansByStatus, 'account_issue');
      options.onMember?.(index + 1, options.members);
      continue;
    }
    if (story === 'denied') {
      await change('denied', null, decidedAtMs);
      await onMember(memberId, { type: 'CloseLoanApplication', memberId, loanId, closing: 'denied', now: at(decidedAtMs) }, officer);
      await notify(`Loan ${loanNumber} update`, `Your loan application ${loanNumber} was not approved. You may apply again.`, decidedAtMs);
      count(summary.loansByStatus, 'denied');
      options.onMember?.(index + 1, options.members);
      continue;
    }
    const approved = await change('approved', null, decidedAtMs);
    await notify(`Loan ${loanNumber} update`, `Your loan ${loanNumber} has been approved. Read and accept its Disclosure Statement in the app within 7 days; the amount reaches your wallet once you accept.`, decidedAtMs);
    if (story === 'awaiting_acceptance') {
      count(summary.loansByStatus, 'approved');
      options.onMember?.(index + 1, options.members);
      continue;
    }
    if (story === 'lapsed') {
      const lapsedAtMs = decidedAtMs + 7 * DAY_MS + pick.random() * DAY_MS;
      await onLoan(loanId, { type: 'LapseApproval', loanId, now: at(lapsedAtMs) }, system);
      await onMember(memberId, { type: 'CloseLoanApplication', memberId, loanId, closing: 'lapsed', now: at(lapsedAtMs) }, system);
      // As the lapse job tells a borrower, so the approval's "accept within 7 days" is not their last word.
      const { title, message } = lapseNotice({ loanNumber, amountCentavos: amount });
      await onMember(memberId, { type: 'NotifyMember', memberId, notificationId: randomUUID(), title, message, type_: 'loan_update', now: at(lapsedAtMs) }, system);
      count(summary.loansByStatus, 'lapsed');
      options.onMember?.(index + 1, options.members);
      continue;
    }

    // Accepted within a day (RA 3765), then disbursed: the account opens with its schedule.
    const acceptedAtMs = decidedAtMs + pick.random() * DAY_MS;
    const loanState = approved.state;
    if (!loanState.exists) throw new Error(`the demo loan ${loanNumber} vanished`);
    // Disbursed on the day of acceptance, the schedule counts from it: the statement shows that schedule.
    const openedOn = businessDateOf(at(acceptedAtMs));
    const terms = { principalCentavos: amount, monthlyRateBps: options.monthlyRateBps, termMonths };
    const statement = disclosureStatementText({
      loanId,
      loanNumber,
      borrowerName: fullName,
      ...terms,
      approvedAt: loanState.approvedAt!,
      disbursement: { on: openedOn, accepted: false },
      schedule: disbursementSchedule(terms, openedOn),
      lateCharge: options.lateCharge,
      lender,
    });
    const hash = createHash('sha256').update(statement, 'utf8').digest('hex');
    await onLoan(loanId, { type: 'AcceptLoanTerms', loanId, memberId, statementHash: hash, currentStatementHash: hash, ipAddress: `203.0.113.${pick.int(1, 254)}`, businessDate: openedOn, now: at(acceptedAtMs) }, self);
    await onMember(memberId, { type: 'DisburseLoan', memberId, loanId, amountCentavos: amount, now: at(acceptedAtMs + 60_000) }, self);
    let loan = await onLoan(loanId, { type: 'OpenLoanAccount', loanId, lateCharge: options.lateCharge, businessDate: openedOn, now: at(acceptedAtMs + 60_000) }, self);

    // Some take part of the money out to their bank within days.
    if (pick.chance(0.6)) {
      const requestedAtMs = acceptedAtMs + (1 + pick.random() * 3) * DAY_MS;
      const withdrawalId = randomUUID();
      const challengeId = randomUUID();
      const withdrawalAmount = Math.round((amount * pick.int(20, 80)) / 100 / 100) * 100;
      await onMember(memberId, { type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: withdrawalAmount, now: at(requestedAtMs) }, self);
      const withdrawalNumber = await allocateNumber(store, 'WD', withdrawalId, new Date(at(requestedAtMs)), self);
      await onMember(
        memberId,
        { type: 'RequestWithdrawal', memberId, withdrawalId, withdrawalNumber, amountCentavos: withdrawalAmount, bankName, bankAccountNumber: profile.bankAccountNumber, challengeId, now: at(requestedAtMs + 30_000) },
        self,
      );
      const outcome = requestedAtMs > now.getTime() - 2 * DAY_MS || pick.chance(0.15) ? 'pending' : pick.chance(0.8) ? 'completed' : 'rejected';
      const decidedMs = requestedAtMs + pick.random() * DAY_MS;
      if (outcome === 'completed') await onMember(memberId, { type: 'CompleteWithdrawal', memberId, withdrawalId, now: at(decidedMs) }, officer);
      if (outcome === 'rejected') {
        await onMember(memberId, { type: 'RejectWithdrawal', memberId, withdrawalId, reason: 'The account name does not match the borrower. Please check your bank details.', now: at(decidedMs) }, officer);
      }
      count(summary.withdrawalsByStatus, outcome);
    }

    // The reminders the hourly job sent as the loan lived, each dated on its business day at the
    // job's first run within reminder hours, and only those whose time has come.
    let remindedThrough = openedOn;
    const remindThrough = async (date: BusinessDate) => {
      for (const day of reminderOpeningDays(account()).filter((opening) => opening > remindedThrough && opening <= date)) {
        const sentAt = firstReminderRunOf(day);
        if (Date.parse(sentAt) > now.getTime()) break;
        for (const command of reminderCommands({ loanId, loanNumber }, account(), day, sentAt)) loan = await onLoan(loanId, command, system);
      }
      remindedThrough = date;
    };
    // Repayments, recorded by an admin from the channel's reference, each after the day close of its date.
    const closeThrough = async (date: BusinessDate) => {
      await remindThrough(date);
      loan = await onLoan(loanId, { type: 'CloseBusinessDays', loanId, through: date }, system);
    };
    const repay = async (amountCentavos: number, date: BusinessDate) => {
      await closeThrough(date);
      const channel = pick.one(CHANNELS);
      loan = await onLoan(loanId, {
        type: 'RecordRepayment',
        loanId,
        repaymentId: randomUUID(),
        amountCentavos,
        channel,
        source: 'admin',
        reference: `${channel.toUpperCase()}-${pick.digits(10)}`,
        valueDate: date,
        businessDate: date,
        now: `${date}T03:${String(pick.int(10, 59))}:00.000Z`,
      });
      summary.repayments += 1;
    };
    const account = () => {
      if (!loan.state.exists || !loan.state.account) throw new Error(`the demo loan ${loanNumber} has no account`);
      return loan.state.account;
    };
    if (story === 'paid_off') {
      // Early payoff: what the payoff quote says on that day (prepayment is free, spec §9).
      const payoffDate = addDays(openedOn, pick.int(7, Math.max(7, Math.floor((now.getTime() - acceptedAtMs) / DAY_MS) - 1)));
      const date = payoffDate > today ? today : payoffDate;
      await closeThrough(date);
      await repay(loanPosition(account(), date).payoff.totalCentavos, date);
      await onMember(memberId, { type: 'CloseLoanApplication', memberId, loanId, closing: 'completed', now: `${date}T04:00:00.000Z` }, system);
      count(summary.loansByStatus, 'completed');
    } else {
      const due = account().schedule.filter((row) => row.dueDate <= today);
      for (const [i, row] of due.entries()) {
        if (story === 'on_time') await repay(row.amountCentavos, row.dueDate);
        // A late payer pays the first instalment some days late and has missed the latest.
        else if (i < due.length - 1) {
          const late = addDays(row.dueDate, pick.int(5, 20));
          await repay(row.amountCentavos, late > today ? today : late);
        }
      }
      await closeThrough(today);
      count(summary.loansByStatus, 'active');
    }
    options.onMember?.(index + 1, options.members);
    waitingFor ??= { memberId, fullName };
  }
  // Four eyes (design §11): the loan officer asked two hours ago for a goodwill credit that a second
  // admin (the main admin) has yet to approve or reject on the Approvals page; it expires after 24 hours.
  if (staff.officerId && waitingFor) {
    const approvalId = randomUUID();
    const command = { kind: 'balance_adjustment' as const, memberId: waitingFor.memberId, amountCentavos: 500_00, reason: 'Goodwill credit: the payout was delayed by our bank' };
    await handleCommand(
      store,
      streams.approval(approvalId),
      approvalDecider,
      { type: 'RequestApproval', approvalId, command, makerId: staff.officerId, reason: command.reason, now: new Date(now.getTime() - 2 * 3600_000).toISOString() },
      officer,
      { newStream: true },
    );
    summary.approvalsWaiting += 1;
  }
  return summary;
}

function weighted<T>(pick: Picker, choices: readonly [T, number][]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = pick.random() * total;
  for (const [choice, weight] of choices) {
    roll -= weight;
    if (roll < 0) return choice;
  }
  return choices.at(-1)![0];
}

/** A second admin (a loan officer) and an auditor, each with a new password printed once. */
async function seedStaff(store: EventStore, metadata: EventMetadata, now: Date, pick: Picker): Promise<{ accounts: SeedAccount[]; officerId: string | null }> {
  const accounts: SeedAccount[] = [];
  let officerId: string | null = null;
  for (const [role, username, fullName] of [
    ['admin', 'officer', 'Rosario Dimaculangan (loan officer)'],
    ['auditor', 'auditor', 'Antonio Luna (auditor)'],
  ] as const) {
    const { state } = await loadState(store, streams.adminUsername(username), adminUsernameDecider);
    if (state.reserved) {
      // A --force run keeps the accounts an earlier seed made; their passwords were printed then.
      accounts.push({ role, username, password: null });
      continue;
    }
    const adminId = randomUUID();
    const password = `Demo-${pick.digits(4)}-${randomUUID().slice(0, 8)}`;
    const at = now.toISOString();
    await handleCommand(store, streams.adminUsername(username), adminUsernameDecider, { type: 'ReserveAdminUsername', username, adminId, now: at }, metadata);
    await handleCommand(
      store,
      streams.admin(adminId),
      adminAccountDecider,
      { type: 'CreateAdminAccount', adminId, username, fullName, email: `${username}@demo.honeylend.ph`, phone: null, role, passwordHash: await hashPassword(password), createdBy: 'bootstrap', now: at },
      metadata,
    );
    if (role === 'admin') officerId = adminId;
    accounts.push({ role, username, password });
  }
  return { accounts, officerId };
}
