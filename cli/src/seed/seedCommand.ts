import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import type { Config } from '../config.js';
import { terminalProgress } from '../progressBar.js';
import { seedDemo, type SeedSummary } from './seedDemo.js';

export const SEED_USAGE = 'lending seed [--force] [--members N] [--days N] [--seed N]';

/** Streams the first start writes by itself (the main admin's account): a store holding only these counts as empty. */
const BOOTSTRAP_STREAM = /^admin-|^main-admin$|^settings-company$/;

/** Events of the store beyond the main admin's own account (and the company details from the environment). */
export async function eventsBeyondBootstrap(store: EventStore): Promise<number> {
  let from = 0;
  let beyond = 0;
  for (;;) {
    const batch = await store.readAll({ from, limit: 1000 });
    if (batch.length === 0) return beyond;
    beyond += batch.filter((event) => !BOOTSTRAP_STREAM.test(event.stream)).length;
    from = batch.at(-1)!.position;
  }
}

interface SeedArguments {
  force: boolean;
  members: number;
  days: number;
  seed: number;
}

export function parseSeedArguments(args: string[]): SeedArguments {
  const parsed: SeedArguments = { force: false, members: 200, days: 120, seed: randomInt(1, 2 ** 31) };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--force') parsed.force = true;
    else if (arg === '--members' || arg === '--days' || arg === '--seed') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} takes a whole number above 0 (usage: ${SEED_USAGE})`);
      parsed[arg.slice(2) as 'members' | 'days' | 'seed'] = value;
    } else throw new Error(`unknown argument ${arg} (usage: ${SEED_USAGE})`);
  }
  if (parsed.days < 30) throw new Error('--days must be at least 30: loans need time for their instalments to fall due');
  return parsed;
}

/** `lending seed`: the demo into an empty event store; refuses production, and a store that holds anything but the main admin unless --force. */
export async function seedCommand(args: string[], config: Config): Promise<void> {
  // Invented people with shared passwords and numbers that may be strangers' have no place in a production store.
  if (config.isProduction) throw new Error('lending seed writes a demo of invented people: it refuses to run with NODE_ENV=production');
  const options = parseSeedArguments(args);
  let store: EventStore;
  try {
    store = await openEventStore(config.eventStoreUrl);
  } catch (error) {
    throw new Error(`the event store at EVENTSTORE_URL does not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    const beyond = await eventsBeyondBootstrap(store);
    if (beyond > 0 && !options.force) {
      throw new Error(`the event store at EVENTSTORE_URL already holds ${beyond} events beyond the main admin's account; seed only an empty store, or add --force to add the demo to it`);
    }
    mkdirSync(config.uploadDir, { recursive: true });
    const progress = terminalProgress();
    const started = Date.now();
    const summary = await seedDemo({
      store,
      saveFile: (fileId, bytes) => writeFile(join(config.uploadDir, fileId), bytes),
      now: new Date(),
      members: options.members,
      days: options.days,
      seed: options.seed,
      monthlyRateBps: config.loanMonthlyRateBps,
      lateCharge: config.lateCharge,
      onMember: (done, total) => progress.update(done / total, `${done} of ${total} members`),
    });
    progress.finish(1, `${summary.members} members`);
    process.stdout.write(describeSeed(summary, options.seed, (Date.now() - started) / 1000));
  } finally {
    await store.close();
  }
}

export function describeSeed(summary: SeedSummary, seed: number, seconds: number): string {
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
  const lines = [
    `seeded ${summary.members} members (${summary.verified} verified) in ${seconds.toFixed(1)} s (seed ${seed}; the same seed gives the same people and stories)`,
    `  loans: ${counts(summary.loansByStatus)}`,
    `  repayments: ${summary.repayments}`,
    `  withdrawals: ${counts(summary.withdrawalsByStatus)}`,
    `  waiting for a second admin (Approvals page): ${summary.approvalsWaiting}`,
    '',
    'Sign in (the web app, e.g. http://localhost:3000):',
    `  borrowers, at /app-login, with the password ${summary.borrowerPassword} (made for this run):`,
    ...summary.borrowers.map((borrower) => `    ${borrower.phone.replace('+63', '0')}  ${borrower.fullName.padEnd(28)} (${borrower.story.replaceAll('_', ' ')})`),
    '    (invented people: no text is ever sent to their numbers; their codes wait in the development outbox)',
    '  staff, at /admin-login:',
    ...summary.staff.map((account) =>
      account.password ? `    ${account.username} / ${account.password}  (${account.role})` : `    ${account.username}  (${account.role}; made by an earlier seed, its password was printed then)`,
    ),
    '    and the main admin from ADMIN_USERNAME / ADMIN_PASSWORD',
    '',
  ];
  return `${lines.join('\n')}\n`;
}
