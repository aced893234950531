import { createHash, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, eventHash } from '@honeylend/eventstore';
import { signedTrailer, type BackupHeader } from './backupFormat.js';
import { verifyBackup } from './restoreBackup.js';

const dir = mkdtempSync(join(tmpdir(), 'honeylend-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const signingKey = generateKeyPairSync('ed25519').privateKey;
const keys = { trustedKeys: [createPublicKey(signingKey)] };
const hex = (text: string) => createHash('sha256').update(text).digest('hex');

type Line = Record<string, unknown>;

function event(position: number, stream: string, revision: number): Line {
  return { id: randomUUID(), stream, revision, type: 'MemberRegistered', data: { n: position }, metadata: {}, position, createdAt: `2026-11-23T10:00:0${position}.000Z` };
}

/** Links each event to the one before it, as the store does (design §10). */
function chained(events: Line[]): Line[] {
  let prevHash = GENESIS_HASH;
  return events.map((line) => {
    const hash = eventHash(line.position as number, prevHash, line as never);
    const linked = { ...line, prevHash, hash };
    prevHash = hash;
    return linked;
  });
}

/** A backup file of `events` with a closing line signed over them, unless told otherwise. */
function backup(name: string, events: Line[], closing?: Line, version = 2): string {
  const header = { format: 'honeylend-backup', version, createdAt: '2026-11-23T10:00:00.000Z', adapter: 'postgres', headPosition: events.length };
  const lines = events.map((line) => `${JSON.stringify(line)}\n`);
  const last = events.at(-1);
  const trailer =
    closing ?? signedTrailer(signingKey, header as BackupHeader, { events: events.length, lastPosition: (last?.position as number) ?? 0, lastHash: (last?.hash as string) ?? GENESIS_HASH, sha256: hex(lines.join('')) });
  const file = join(dir, name);
  writeFileSync(file, gzipSync(`${JSON.stringify(header)}\n${lines.join('')}${JSON.stringify(trailer)}\n`));
  return file;
}

describe('verifyBackup', () => {
  it('accepts a backup whose every event matches its hash and links to the one before, from the genesis hash, under a signed closing line', async () => {
    const verified = await verifyBackup(backup('chained.gz', chained([event(1, 'member-a', 0), event(2, 'member-b', 0), event(3, 'member-a', 1)])), keys);
    expect(verified).toMatchObject({ events: 3, lastPosition: 3, checkpoints: 0 });
  });

  it('refuses a chain that does not link, does not start at the genesis hash, or an event without its hashes', async () => {
    const links = chained([event(1, 's', 0), event(2, 's', 1), event(3, 's', 2)]);
    const broken = [links[0], { ...links[1], prevHash: hex('something else') }, links[2]];
    await expect(verifyBackup(backup('broken.gz', broken), keys)).rejects.toThrow(/line 3 \(position 2, s #1\): its prevHash is not the hash of the event before it: the chain is broken here/);
    await expect(verifyBackup(backup('no-genesis.gz', [{ ...links[0], prevHash: hex('elsewhere') }]), keys)).rejects.toThrow(/line 2 .*the chain is broken here/);
    const { hash: _hash, prevHash: _prevHash, ...unhashed } = links[1];
    await expect(verifyBackup(backup('unhashed.gz', [links[0], unhashed, links[2]]), keys)).rejects.toThrow(/line 3 \(position 2, s #1\): has no hash: every event of a backup carries its link in the hash chain/);
  });

  it('refuses positions out of order, revisions that skip, lines that are not events, and a closing line that does not match', async () => {
    await expect(verifyBackup(backup('order.gz', chained([event(2, 's', 0), event(1, 's', 1)])), keys)).rejects.toThrow(/positions must increase/);
    await expect(verifyBackup(backup('skip.gz', chained([event(1, 's', 0), event(2, 's', 2)])), keys)).rejects.toThrow(/the stream's next revision should be 1/);
    await expect(verifyBackup(backup('junk.gz', [{ hello: 'world' }]), keys)).rejects.toThrow(/line 2: not an event/);
    const one = chained([event(1, 's', 0)]);
    const miscounted = { end: true, events: 2, lastPosition: 1, lastHash: one[0].hash, sha256: GENESIS_HASH, signature: 'A'.repeat(86), publicKey: 'A'.repeat(43) };
    await expect(verifyBackup(backup('count.gz', one, miscounted), keys)).rejects.toThrow(/closing line counts 2 events/);
    const notGzip = join(dir, 'text.gz');
    writeFileSync(notGzip, 'not a backup');
    await expect(verifyBackup(notGzip, keys)).rejects.toThrow(/not a readable gzip file/);
  });

  it('refuses a version 1 backup, whose hashes were optional and whose closing line nobody signed', async () => {
    await expect(verifyBackup(backup('v1.gz', chained([event(1, 's', 0)]), undefined, 1), keys)).rejects.toThrow(/this is a version 1 backup: .* cannot be proved unchanged; take a new backup with lending backup/);
  });
});
