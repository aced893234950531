import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyBackup } from './restoreBackup.js';

const dir = mkdtempSync(join(tmpdir(), 'honeylend-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GENESIS = '0'.repeat(64);
const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A backup file of `events`, with a correct closing line unless told otherwise. */
function backup(name: string, events: Record<string, unknown>[], closing?: Record<string, unknown>): string {
  const header = { format: 'honeylend-backup', version: 1, createdAt: '2026-11-23T10:00:00.000Z', adapter: 'postgres', headPosition: events.length };
  const lines = events.map((event) => `${JSON.stringify(event)}\n`);
  const trailer = closing ?? { end: true, events: events.length, lastPosition: events.length, sha256: hex(lines.join('')) };
  const file = join(dir, name);
  writeFileSync(file, gzipSync(`${JSON.stringify(header)}\n${lines.join('')}${JSON.stringify(trailer)}\n`));
  return file;
}

function event(position: number, stream: string, revision: number, link?: { prevHash: string; hash: string }): Record<string, unknown> {
  return { id: randomUUID(), stream, revision, type: 'MemberRegistered', data: { n: position }, metadata: {}, position, createdAt: `2026-11-23T10:00:0${position}.000Z`, ...link };
}

const chain = (count: number) => {
  const hashes = Array.from({ length: count }, (_, i) => hex(`event ${i}`));
  return hashes.map((hash, i) => ({ prevHash: i === 0 ? GENESIS : hashes[i - 1], hash }));
};

describe('verifyBackup', () => {
  it('accepts a hash-chained backup whose every event links to the one before it, from the genesis hash', async () => {
    const links = chain(3);
    const verified = await verifyBackup(backup('chained.gz', [event(1, 'member-a', 0, links[0]), event(2, 'member-b', 0, links[1]), event(3, 'member-a', 1, links[2])]));
    expect(verified).toMatchObject({ events: 3, lastPosition: 3, chained: true });
  });

  it('accepts a backup of a store that keeps no chain', async () => {
    expect(await verifyBackup(backup('plain.gz', [event(1, 'member-a', 0), event(2, 'member-a', 1)]))).toMatchObject({ events: 2, chained: false });
  });

  it('refuses a chain that does not link, does not start at the genesis hash, or loses its hashes part-way', async () => {
    const links = chain(3);
    const broken = [links[0], { ...links[1], prevHash: hex('something else') }, links[2]];
    await expect(verifyBackup(backup('broken.gz', [event(1, 's', 0, broken[0]), event(2, 's', 1, broken[1]), event(3, 's', 2, broken[2])]))).rejects.toThrow(
      /line 3 \(position 2, s #1\): its prevHash is not the hash of the event before it: the chain is broken here/,
    );
    await expect(verifyBackup(backup('no-genesis.gz', [event(1, 's', 0, links[1])]))).rejects.toThrow(/line 2 .*the chain is broken here/);
    await expect(verifyBackup(backup('partly.gz', [event(1, 's', 0, links[0]), event(2, 's', 1)]))).rejects.toThrow(/has no hash where every event before it had one/);
  });

  it('refuses positions out of order, revisions that skip, lines that are not events, and a closing line that does not match', async () => {
    await expect(verifyBackup(backup('order.gz', [event(2, 's', 0), event(1, 's', 1)]))).rejects.toThrow(/positions must increase/);
    await expect(verifyBackup(backup('skip.gz', [event(1, 's', 0), event(2, 's', 2)]))).rejects.toThrow(/the stream's next revision should be 1/);
    await expect(verifyBackup(backup('junk.gz', [{ hello: 'world' }]))).rejects.toThrow(/line 2: not an event/);
    await expect(verifyBackup(backup('count.gz', [event(1, 's', 0)], { end: true, events: 2, lastPosition: 1, sha256: GENESIS }))).rejects.toThrow(/closing line counts 2 events/);
    const notGzip = join(dir, 'text.gz');
    writeFileSync(notGzip, 'not a backup');
    await expect(verifyBackup(notGzip)).rejects.toThrow(/not a readable gzip file/);
  });
});
