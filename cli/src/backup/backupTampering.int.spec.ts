import { createHash, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, eventHash, openEventStore, signCheckpoint, type EventStore } from '@honeylend/eventstore';
import { signedTrailer, type BackupHeader } from './backupFormat.js';
import { restoreBackup } from './restoreBackup.js';
import { writeBackup } from './writeBackup.js';

/*
 * `lending restore` trusts a backup only as far as it can prove it: every event matches its hash
 * and links to the one before, the signed checkpoints inside hold, and the closing line is signed
 * with the audit signing key. An encrypted backup opens only with its key and only unchanged.
 * Each refusal leaves the target store empty.
 */
const work = mkdtempSync(join(tmpdir(), 'honeylend-backup-tamper-'));
const signingKey = generateKeyPairSync('ed25519').privateKey;
const trustedKeys = [createPublicKey(signingKey)];
const encryptionKey = randomBytes(32);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small log of members' events; `change` rewrites the data of the event at that index before it is appended. */
async function memberLog(change?: { index: number; data: Record<string, unknown> }): Promise<EventStore> {
  const store = await openEventStore('pglite:memory');
  for (let index = 0; index < 6; index++) {
    const memberId = `00000000-0000-4000-8000-00000000000${index}`;
    const data = change?.index === index ? change.data : { memberId, fullName: `Borrower ${index}`, balanceCentavos: 100_000 * index };
    await store.append(`member-${memberId}`, [{ id: `10000000-0000-4000-8000-00000000000${index}`, type: 'MemberRegistered', data, createdAt: `2026-11-2${index}T08:00:00.000Z` }], {
      expectedRevision: 'no_stream',
    });
  }
  return store;
}

/** Appends a checkpoint of the chain at `position`, signed by `key`, saying `hash` (by default the chain's own). */
async function checkpoint(store: EventStore, position: number, key: KeyObject, hash?: string): Promise<void> {
  const [there] = await store.readChain!({ from: position - 1, limit: 1 });
  const signed = signCheckpoint(key, { position, hash: hash ?? there.hash, time: '2026-11-26T08:00:00.000Z' });
  await store.append(CHECKPOINT_STREAM, [{ id: randomUUID(), type: CHECKPOINT_EVENT_TYPE, data: { ...signed } }], { expectedRevision: 'any' });
}

const lines = (file: string) => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
const writeLines = (name: string, content: string[]) => {
  const file = join(work, name);
  writeFileSync(file, gzipSync(`${content.join('\n')}\n`));
  return file;
};

/** Restores `file` into a new empty store: the refusal's message, and that nothing was written. */
async function refusal(file: string, keys: { encryptionKey?: Buffer | null } = {}): Promise<string> {
  const target = await openEventStore('pglite:memory');
  try {
    const error = await restoreBackup(target, file, { trustedKeys, ...keys }).then(
      () => null,
      (failure: unknown) => failure as Error,
    );
    expect(error, `${file} was restored`).not.toBeNull();
    expect(await target.headPosition()).toBe(0);
    return error!.message;
  } finally {
    await target.close();
  }
}

let honest: string;
beforeAll(async () => {
  const store = await memberLog();
  await checkpoint(store, 4, signingKey);
  await store.append('member-00000000-0000-4000-8000-00000000000a', [{ id: randomUUID(), type: 'MemberRegistered', data: { fullName: 'After the checkpoint' } }], { expectedRevision: 'no_stream' });
  honest = join(work, 'honest.ndjson.gz');
  await writeBackup(store, honest, { signingKey });
  await store.close();
});

describe('lending restore refuses a tampered backup', () => {
  it('restores the honest backup, its signed checkpoint checked', async () => {
    const target = await openEventStore('pglite:memory');
    const restored = await restoreBackup(target, honest, { trustedKeys });
    expect(restored).toMatchObject({ events: 8, lastPosition: 8, checkpoints: 1, positionsKept: true });
    await target.close();
  });

  it("refuses a backup with one event's body changed", async () => {
    const content = lines(honest);
    content[3] = content[3].replace('"fullName":"Borrower 2"', '"fullName":"Someone Else"');
    expect(await refusal(writeLines('body.gz', content))).toMatch(/^line 4 \(position 3, member-\S+ #0\): does not match its hash: the event was changed after it was recorded$/);
  });

  it('refuses a backup with a hash removed', async () => {
    const content = lines(honest);
    const { hash: _hash, ...rest } = JSON.parse(content[2]) as Record<string, unknown>;
    content[2] = JSON.stringify(rest);
    expect(await refusal(writeLines('no-hash.gz', content))).toMatch(/^line 3 \(position 2, member-\S+ #0\): has no hash: every event of a backup carries its link in the hash chain$/);
  });

  it('refuses a backup changed with every hash and the closing digest recomputed by the attacker', async () => {
    const content = lines(honest);
    const header = JSON.parse(content[0]) as BackupHeader;
    const events = content.slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown> & { position: number; prevHash: string; hash: string });
    (events[5].data as { fullName: string }).fullName = 'Someone Else';
    // Relink from the changed event on, exactly as the store would have.
    for (let i = 5; i < events.length; i++) {
      events[i].prevHash = events[i - 1].hash;
      events[i].hash = eventHash(events[i].position, events[i].prevHash, events[i] as never);
    }
    const eventLines = events.map((event) => JSON.stringify(event));
    const summary = { events: events.length, lastPosition: events.at(-1)!.position, lastHash: events.at(-1)!.hash, sha256: sha256(eventLines.map((line) => `${line}\n`).join('')) };
    const honestClosing = JSON.parse(content.at(-1)!) as Record<string, unknown>;
    const recomputed = writeLines('recomputed.gz', [content[0], ...eventLines, JSON.stringify({ ...honestClosing, ...summary })]);
    expect(await refusal(recomputed)).toBe("the closing line's signature does not match the backup: the file was changed after it was written");
    // Signing it again needs the audit signing key; a key of the attacker's own is not trusted.
    const attackerKey = generateKeyPairSync('ed25519').privateKey;
    const resigned = writeLines('resigned.gz', [content[0], ...eventLines, JSON.stringify(signedTrailer(attackerKey, header, summary))]);
    expect(await refusal(resigned)).toMatch(/^the closing line is not signed with the audit signing key \(AUDIT_SIGNING_KEY\)/);
  });

  it('refuses a backup whose signed checkpoint does not match its chain: the log was rewritten before the backup was taken', async () => {
    // The checkpoint was signed over the original log; the log was then rewritten, its chain recomputed, and backed up.
    const original = await memberLog();
    const [there] = await original.readChain!({ from: 3, limit: 1 });
    await original.close();
    const rewritten = await memberLog({ index: 1, data: { memberId: '00000000-0000-4000-8000-000000000001', fullName: 'Borrower 1', balanceCentavos: 99_900_000 } });
    await checkpoint(rewritten, 4, signingKey, there.hash);
    const file = join(work, 'rewritten.ndjson.gz');
    await writeBackup(rewritten, file, { signingKey });
    await rewritten.close();
    expect(await refusal(file)).toMatch(
      /^the checkpoint recorded at position 7 \(signed 2026-11-26T08:00:00\.000Z\) for position 4 says the chain's hash there is [0-9a-f]{64}, the backup's is [0-9a-f]{64}: the log up to there was rewritten$/,
    );
  });

  it('refuses a backup holding a checkpoint not signed with the audit signing key', async () => {
    const store = await memberLog();
    await checkpoint(store, 4, generateKeyPairSync('ed25519').privateKey);
    const file = join(work, 'forged.ndjson.gz');
    await writeBackup(store, file, { signingKey });
    await store.close();
    expect(await refusal(file)).toMatch(/^the checkpoint recorded at position 7 .* is not signed with the audit signing key: it is forged$/);
  });
});

describe('an encrypted backup (BACKUP_ENCRYPTION_KEY)', () => {
  let sealed: string;
  beforeAll(async () => {
    const store = await memberLog();
    sealed = join(work, 'sealed.ndjson.gz.enc');
    const written = await writeBackup(store, sealed, { signingKey, encryptionKey });
    expect(written.encrypted).toBe(true);
    await store.close();
  });

  it('holds no readable event, and round-trips with its key', async () => {
    const bytes = readFileSync(sealed);
    expect(bytes.subarray(0, 8).toString('ascii')).toBe('HLBKAES1');
    expect(() => gunzipSync(bytes)).toThrow();
    const target = await openEventStore('pglite:memory');
    const restored = await restoreBackup(target, sealed, { trustedKeys, encryptionKey });
    expect(restored).toMatchObject({ events: 6, lastPosition: 6, positionsKept: true });
    const [event] = await target.readStream('member-00000000-0000-4000-8000-000000000002');
    expect(event.data).toEqual({ memberId: '00000000-0000-4000-8000-000000000002', fullName: 'Borrower 2', balanceCentavos: 200_000 });
    await target.close();
  });

  it('refuses it without a key, with a wrong key, and with one byte flipped', async () => {
    expect(await refusal(sealed)).toMatch(/is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was written with$/);
    expect(await refusal(sealed, { encryptionKey: randomBytes(32) })).toBe('the backup does not decrypt with BACKUP_ENCRYPTION_KEY (chunk 1): it was encrypted with another key, or the file was changed');
    const flipped = Buffer.from(readFileSync(sealed));
    flipped[flipped.length - 40] ^= 0x01;
    const file = join(work, 'flipped.enc');
    writeFileSync(file, flipped);
    expect(await refusal(file, { encryptionKey })).toMatch(/^the backup does not decrypt with BACKUP_ENCRYPTION_KEY \(chunk \d+\): it was encrypted with another key, or the file was changed$/);
    const cut = join(work, 'cut.enc');
    writeFileSync(cut, readFileSync(sealed).subarray(0, readFileSync(sealed).length - 10));
    expect(await refusal(cut, { encryptionKey })).toMatch(/ends before its last chunk: it was cut short or changed$/);
  });
});
