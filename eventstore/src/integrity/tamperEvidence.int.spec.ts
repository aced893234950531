import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventStore } from '../port.js';
import { postgresReachability } from '../testing/adapterTargets.js';
import { appendForgedCheckpoint, changeOneByte, deleteEvent, pgliteTamperable, postgresTamperable, rewriteAndRechain, swapEvents, type TamperableLog } from '../testing/tampering.js';
import { AuditCheckpointer, ChainBrokenError } from './checkpointer.js';
import { CHECKPOINT_STREAM, readStoredCheckpoints, signCheckpoint } from './checkpoint.js';
import { GENESIS_HASH } from './eventHash.js';
import { verifyLog } from './verifyLog.js';

const STREAMS = ['member-a', 'member-b', 'loan-c', 'settings-d'].map((name) => `${name}-${randomUUID()}`);

/** 40 events over four streams, with a signed checkpoint after every 10 (at 10, 20, 30 and 40). */
async function seed(store: EventStore, signingKey: KeyObject): Promise<void> {
  for (let n = 0; n < 40; n++) {
    const stream = STREAMS[n % STREAMS.length];
    await store.append(stream, [{ id: randomUUID(), type: 'Tested', data: { note: `event number ${n}`, amountCentavos: n * 100 }, metadata: { actorId: 'tester' } }], {
      expectedRevision: 'any',
    });
  }
  await new AuditCheckpointer({ store, signingKey, everyEvents: 10 }).tick();
}

function describeTamperEvidence(open: () => Promise<TamperableLog>) {
  const { privateKey: signingKey } = generateKeyPairSync('ed25519');
  const trustedKeys = [createPublicKey(signingKey)];

  /**
   * One seeded log, damaged step by step, each time lower in the log than before, so that each
   * verification's first bad position is the newest damage (the store is closed while tampering:
   * PGlite allows one client at a time).
   */
  it('passes an untouched log, then names the position and reason of each kind of tampering', async () => {
    const log = await open();
    try {
      let store = await log.open();
      await seed(store, signingKey);
      const verify = async () => {
        store = await log.open();
        try {
          return await verifyLog(store, { trustedKeys });
        } finally {
          await store.close();
        }
      };
      expect(await verifyLog(store, { trustedKeys })).toMatchObject({ status: 'passed', firstBad: null, from: 1, to: 44, verifiedTo: 44, checkedEvents: 44, checkedCheckpoints: 4 });
      const [at35] = await store.readChain!({ from: 34, limit: 1 });
      await appendForgedCheckpoint(store, 35, at35.hash);
      await store.close();
      expect(await verify()).toMatchObject({ status: 'failed', verifiedTo: 34, firstBad: { position: 35, reason: 'forged-checkpoint' } });

      await swapEvents(log, 25, 26);
      expect(await verify()).toMatchObject({ status: 'failed', verifiedTo: 24, firstBad: { position: 25, reason: 'broken-link' } });

      // Recomputing the chain from 15 on makes every link hold again; the checkpoint signed at 20 does not.
      await rewriteAndRechain(log, 15);
      expect(await verify()).toMatchObject({ status: 'failed', firstBad: { position: 20, reason: 'checkpoint-mismatch' } });

      await deleteEvent(log, 7);
      expect(await verify()).toMatchObject({ status: 'failed', verifiedTo: 6, firstBad: { position: 7, reason: 'missing-event' } });

      await changeOneByte(log, 3);
      expect(await verify()).toMatchObject({ status: 'failed', verifiedTo: 2, firstBad: { position: 3, reason: 'changed-content' } });
    } finally {
      await log.dispose();
    }
  });

  it('checks checkpoints from a file too, and a range that leaves a damaged event out passes', async () => {
    const log = await open();
    try {
      let store = await log.open();
      await seed(store, signingKey);
      const exported = await readStoredCheckpoints(store);
      await store.close();
      // The attacker rewrites event 15, recomputes the chain and removes the checkpoints from the log.
      await rewriteAndRechain(log, 15);
      await log.asSuperuser(async (run) => {
        await run('DELETE FROM events WHERE stream = $1', [CHECKPOINT_STREAM]);
      });
      store = await log.open();
      try {
        expect(await verifyLog(store, { trustedKeys, to: 40 })).toMatchObject({ status: 'passed', checkedCheckpoints: 0 });
        expect(await verifyLog(store, { trustedKeys, extraCheckpoints: exported, to: 40 })).toMatchObject({
          status: 'failed',
          firstBad: { position: 20, reason: 'checkpoint-mismatch' },
        });
        const forgedFile = [{ ...exported[2], signature: signCheckpoint(generateKeyPairSync('ed25519').privateKey, exported[2]).signature }];
        expect(await verifyLog(store, { trustedKeys, extraCheckpoints: forgedFile, from: 21, to: 40 })).toMatchObject({
          status: 'failed',
          firstBad: { position: 30, reason: 'forged-checkpoint' },
        });
        expect(await verifyLog(store, { trustedKeys, from: 16, to: 19 })).toMatchObject({ status: 'passed', from: 16, to: 19, checkedEvents: 4, verifiedTo: 19 });
      } finally {
        await store.close();
      }
    } finally {
      await log.dispose();
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the events table through the application role', async () => {
    const log = await open();
    try {
      const store = await log.open();
      await seed(store, signingKey);
      await store.close();
      for (const sql of ["UPDATE events SET data = '{}' WHERE position = 1", 'DELETE FROM events WHERE position = 1', 'TRUNCATE events']) {
        const error = await log.asApplication(sql);
        expect(error?.message, sql).toMatch(/the event log is append-only: (UPDATE|DELETE|TRUNCATE) on/);
      }
      const reopened = await log.open();
      try {
        expect(await verifyLog(reopened, { trustedKeys })).toMatchObject({ status: 'passed', checkedEvents: 44 });
      } finally {
        await reopened.close();
      }
    } finally {
      await log.dispose();
    }
  });

  it('chains a log written before the chain existed on its first open, reporting progress, and then refuses rewrites', async () => {
    const log = await open();
    try {
      const store = await log.open();
      for (let n = 0; n < 12_000; n += 1000) {
        await store.append(
          `member-${randomUUID()}`,
          Array.from({ length: 1000 }, (_, i) => ({ id: randomUUID(), type: 'Tested', data: { n: n + i } })),
          { expectedRevision: 'no_stream' },
        );
      }
      await store.close();
      // As the table was before the chain: no hash columns, no trigger.
      await log.asSuperuser(
        async (run) => {
          await run('DROP TRIGGER events_append_only ON events');
          await run('DROP TRIGGER events_no_truncate ON events');
          await run('ALTER TABLE events DROP COLUMN prev_hash, DROP COLUMN hash');
        },
        { disableTrigger: false },
      );
      const progress: Array<{ chained: number; total: number }> = [];
      const migrated = await log.open({ onChainMigration: (p) => progress.push(p) });
      try {
        expect(progress[0]).toEqual({ chained: 0, total: 12_000 });
        expect(progress.at(-1)).toEqual({ chained: 12_000, total: 12_000 });
        expect(progress.length).toBeGreaterThan(2);
        const [first] = await migrated.readChain!({ from: 0, limit: 1 });
        expect(first.prevHash).toBe(GENESIS_HASH);
        expect(await verifyLog(migrated, { trustedKeys })).toMatchObject({ status: 'passed', checkedEvents: 12_000 });
        await migrated.append(`member-${randomUUID()}`, [{ id: randomUUID(), type: 'Tested', data: { after: true } }], { expectedRevision: 'no_stream' });
        expect(await verifyLog(migrated, { trustedKeys })).toMatchObject({ status: 'passed', checkedEvents: 12_001 });
      } finally {
        await migrated.close();
      }
      expect((await log.asApplication('DELETE FROM events WHERE position = 1'))?.message).toMatch(/append-only/);
    } finally {
      await log.dispose();
    }
  });

  it('signs a checkpoint after every 10,000 events and at least hourly, never over a broken chain', async () => {
    const log = await open();
    try {
      let store = await log.open();
      let now = new Date('2026-11-23T08:00:00.000Z');
      const checkpointer = () => new AuditCheckpointer({ store, signingKey, now: () => now });
      for (let n = 0; n < 25_000; n += 1000) {
        await store.append(
          `member-${randomUUID()}`,
          Array.from({ length: 1000 }, (_, i) => ({ id: randomUUID(), type: 'Tested', data: { n: n + i } })),
          { expectedRevision: 'no_stream' },
        );
      }
      // The first look signs at 10,000 and 20,000, then (no checkpoint yet this hour… but one was just made) waits.
      const first = await checkpointer().tick();
      expect(first.map((checkpoint) => checkpoint.position)).toEqual([10_000, 20_000]);
      expect(await checkpointer().tick()).toEqual([]);
      // An hour later, the 5,000 events since are signed; with nothing new, nothing is.
      now = new Date('2026-11-23T09:00:00.000Z');
      const hourly = await checkpointer().tick();
      expect(hourly.map((checkpoint) => checkpoint.position)).toEqual([25_002]);
      now = new Date('2026-11-23T10:30:00.000Z');
      expect(await checkpointer().tick()).toEqual([]);
      expect((await readStoredCheckpoints(store)).map((checkpoint) => [checkpoint.position, checkpoint.time])).toEqual([
        [10_000, '2026-11-23T08:00:00.000Z'],
        [20_000, '2026-11-23T08:00:00.000Z'],
        [25_002, '2026-11-23T09:00:00.000Z'],
      ]);
      expect(await verifyLog(store, { trustedKeys })).toMatchObject({ status: 'passed', checkedCheckpoints: 3 });

      await store.append(`member-${randomUUID()}`, [{ id: randomUUID(), type: 'Tested', data: { note: 'about to be changed' } }], { expectedRevision: 'no_stream' });
      const changed = await store.headPosition();
      await store.close();
      await changeOneByte(log, changed);
      store = await log.open();
      now = new Date('2026-11-23T12:00:00.000Z');
      await expect(checkpointer().tick()).rejects.toThrow(ChainBrokenError);
      expect(await readStoredCheckpoints(store)).toHaveLength(3);
      await store.close();
    } finally {
      await log.dispose();
    }
  });
}

// Opening a PGlite directory takes seconds on a busy machine, and these tests open several.
describe('tamper evidence on PGlite', { timeout: 180_000 }, () => describeTamperEvidence(pgliteTamperable));

const postgres = await postgresReachability();
if (postgres.reachable) describe('tamper evidence on PostgreSQL', { timeout: 60_000 }, () => describeTamperEvidence(postgresTamperable));
else describe('tamper evidence on PostgreSQL', () => it.skip(`skipped: ${postgres.reason}`, () => undefined));
