import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditCheckpointer, readStoredCheckpoints, type EventStore } from '@honeylend/eventstore';
import { postgresReachability } from '../../../eventstore/src/testing/adapterTargets.js';
import { appendForgedCheckpoint, changeOneByte, deleteEvent, pgliteTamperable, postgresTamperable, rewriteAndRechain, swapEvents, type TamperableLog } from '../../../eventstore/src/testing/tampering.js';

const LENDING = fileURLToPath(new URL('../../bin/lending.js', import.meta.url));
const { privateKey } = generateKeyPairSync('ed25519');
const SIGNING_KEY = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
const scratch = mkdtempSync(join(tmpdir(), 'lending-verify-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `lending audit verify …` as an operator runs it, trusting the test's signing key. */
function verify(url: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [LENDING, 'audit', 'verify', ...args], {
    env: { PATH: process.env.PATH, EVENTSTORE_URL: url, AUDIT_SIGNING_KEY: SIGNING_KEY, DATA_DIR: scratch, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** 40 events over four streams, a checkpoint signed after every 10 (at 10, 20, 30, 40: the log ends at 44). */
async function seed(store: EventStore): Promise<void> {
  const streams = ['member', 'loan', 'member', 'settings'].map((kind) => `${kind}-${randomUUID()}`);
  for (let n = 0; n < 40; n++) {
    await store.append(streams[n % 4], [{ id: randomUUID(), type: 'Tested', data: { note: `event number ${n}`, amountCentavos: n * 100 } }], { expectedRevision: 'any' });
  }
  await new AuditCheckpointer({ store, signingKey: privateKey, everyEvents: 10 }).tick();
}

/** `parallel`: the log is PostgreSQL, so every run is repeated split over two worker threads, with the same answer. */
function describeVerifyCommand(openLog: () => Promise<TamperableLog>, parallel: boolean) {
  it('passes the untouched log, then fails after each tampering naming the first bad position and what is wrong', async () => {
    const log = await openLog();
    try {
      const store = await log.open();
      await seed(store);
      const exported = await readStoredCheckpoints(store);
      const [at35] = await store.readChain!({ from: 34, limit: 1 });
      await store.close();

      for (const args of parallel ? [[], ['--workers', '2']] : [[]]) {
        const clean = await verify(log.url, args);
        expect(clean.code, clean.stderr).toBe(0);
        expect(clean.stdout).toMatch(/verified positions 1–44 of the \w+ log: the chain holds\. 44 events and 4 signed checkpoints checked/);
      }

      // Each damage lies lower in the log than the one before, so each run's first bad position is the newest damage.
      const forged = await log.open();
      await appendForgedCheckpoint(forged, 35, at35.hash);
      await forged.close();
      const steps: Array<[string, () => Promise<void>, number, RegExp]> = [
        ['a checkpoint signed with an unknown key', async () => undefined, 35, /forged checkpoint/],
        ['two rows swapped', () => swapEvents(log, 25, 26), 25, /broken link/],
        ['an event changed and the chain recomputed', () => rewriteAndRechain(log, 15), 20, /the chain does not pass through a signed checkpoint/],
        ['a row deleted', () => deleteEvent(log, 7), 7, /missing event/],
        ['one byte of an event changed', () => changeOneByte(log, 3), 3, /changed content/],
      ];
      for (const [what, tamper, position, reason] of steps) {
        await tamper();
        for (const args of parallel ? [[], ['--workers', '2']] : [[]]) {
          const run = await verify(log.url, args);
          expect(run.code, what).toBe(1);
          expect(run.stdout, `${what} ${args.join(' ')}`).toMatch(new RegExp(`FAILED at position ${position}: ${reason.source}`));
          expect(run.stderr, what).toMatch(new RegExp(`^lending: the log fails verification at position ${position} `));
          expect(run.stderr, what).not.toMatch(/\n\s+at /);
        }
      }

      // A range before the damage passes; an exported checkpoint file is checked too.
      const before = await verify(log.url, ['--from', '1', '--to', '2']);
      expect(before.code).toBe(0);
      expect(before.stdout).toMatch(/verified positions 1–2 .* the chain holds\. 2 events/);
      // Checkpoints kept outside the log still count when the attacker removed those in it.
      await log.asSuperuser(async (run) => {
        await run("DELETE FROM events WHERE stream = 'audit-checkpoints'");
      });
      const without = await verify(log.url, ['--from', '8', '--to', '40']);
      expect(without.code, without.stderr).toBe(0);
      const file = join(scratch, `checkpoints-${randomUUID()}.ndjson`);
      writeFileSync(file, exported.map((checkpoint) => JSON.stringify(checkpoint)).join('\n'));
      const withFile = await verify(log.url, ['--from', '8', '--to', '40', '--checkpoints', file]);
      expect(withFile.code).toBe(1);
      expect(withFile.stdout).toMatch(/FAILED at position 20: the chain does not pass through a signed checkpoint/);
    } finally {
      await log.dispose();
    }
  });
}

describe('lending audit verify on PGlite', { timeout: 300_000 }, () => describeVerifyCommand(pgliteTamperable, false));

const postgres = await postgresReachability();
if (postgres.reachable) describe('lending audit verify on PostgreSQL', { timeout: 300_000 }, () => describeVerifyCommand(postgresTamperable, true));
else describe('lending audit verify on PostgreSQL', () => it.skip(`skipped: ${postgres.reason}`, () => undefined));

describe('lending audit verify, its arguments', { timeout: 90_000 }, () => {
  it('refuses bad arguments and an unreadable checkpoint file with one line and exit code 1', async () => {
    for (const [args, message] of [
      [['--from', 'ten'], /--from is a position: a whole number from 1/],
      [['--from', '5', '--to', '2'], /--from must not be after --to/],
      [['--sideways'], /Unknown option '--sideways'/],
      [['--workers', '0'], /--workers is a whole number from 1 to 16/],
      [['--checkpoints', join(scratch, 'no-such-file')], /cannot read the checkpoint file .*ENOENT/],
    ] as const) {
      const run = await verify('pglite:memory', [...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
  });

  it('prints the public key that checks the signatures', async () => {
    const child = spawn(process.execPath, [LENDING, 'audit', 'public-key'], { env: { PATH: process.env.PATH, AUDIT_SIGNING_KEY: SIGNING_KEY, DATA_DIR: scratch }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const privatePem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(stdout).toContain('-----BEGIN PUBLIC KEY-----');
    expect(stdout).not.toContain(privatePem.split('\n')[1]);
    expect(stdout).toMatch(/SHA-256 fingerprint: [0-9a-f]{64}/);
  });
});
