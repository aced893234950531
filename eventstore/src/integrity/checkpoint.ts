import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { eventDataSchemas, streams, type EventData } from '@honeylend/contracts';
import type { EventStore } from '../port.js';
import { canonicalJson } from './canonicalJson.js';
import { publicKeyText } from './signingKey.js';

/**
 * A signed checkpoint: "the log's chain passed through `hash` at `position`, as seen at `time`",
 * signed with Ed25519 over "honeylend-checkpoint-v1\n" + the canonical JSON of { hash, position,
 * time }. Kept as events of one stream in the log itself, and exportable, so that someone who
 * rewrites the table and recomputes the whole chain is still caught by a checkpoint they cannot
 * sign again.
 */

export const CHECKPOINT_STREAM = streams.auditCheckpoints;
export const CHECKPOINT_EVENT_TYPE = 'AuditCheckpointSigned';
const SIGNATURE_DOMAIN = 'honeylend-checkpoint-v1\n';

export const checkpointSchema = eventDataSchemas.AuditCheckpointSigned;
export type Checkpoint = EventData<'AuditCheckpointSigned'>;

/** A checkpoint as kept in the log: where its own event sits. */
export interface StoredCheckpoint extends Checkpoint {
  recordedAt: number;
}

function signedBytes({ hash, position, time }: Pick<Checkpoint, 'hash' | 'position' | 'time'>): Buffer {
  return Buffer.from(SIGNATURE_DOMAIN + canonicalJson({ hash, position, time }), 'utf8');
}

export function signCheckpoint(privateKey: KeyObject, link: Pick<Checkpoint, 'hash' | 'position' | 'time'>): Checkpoint {
  const signature = sign(null, signedBytes(link), privateKey).toString('base64url');
  return { position: link.position, hash: link.hash, time: link.time, signature, publicKey: publicKeyText(createPublicKey(privateKey)) };
}

/** True when one of the trusted keys signed exactly this position, hash and time. */
export function isSignedByTrustedKey(checkpoint: Checkpoint, trustedKeys: readonly KeyObject[]): boolean {
  const key = trustedKeys.find((trusted) => publicKeyText(trusted) === checkpoint.publicKey);
  if (!key) return false;
  try {
    return verify(null, signedBytes(checkpoint), key, Buffer.from(checkpoint.signature, 'base64url'));
  } catch {
    return false;
  }
}

/** The checkpoints kept in the store, oldest first (a malformed one is not a checkpoint: verification reports the chain, not it). */
export async function readStoredCheckpoints(store: EventStore): Promise<StoredCheckpoint[]> {
  const events = await store.readStream(CHECKPOINT_STREAM);
  return events.flatMap((event) => {
    const parsed = event.type === CHECKPOINT_EVENT_TYPE ? checkpointSchema.safeParse(event.data) : null;
    return parsed?.success ? [{ ...parsed.data, recordedAt: event.position }] : [];
  });
}

/** An exported checkpoint file: NDJSON (one checkpoint a line) or a JSON array. */
export function parseCheckpointFile(text: string): Checkpoint[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const values: unknown[] = trimmed.startsWith('[')
    ? (JSON.parse(trimmed) as unknown[])
    : trimmed
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
  return values.map((value, index) => {
    const { recordedAt: _recordedAt, ...fields } = (value ?? {}) as Record<string, unknown>;
    const parsed = checkpointSchema.safeParse(fields);
    if (!parsed.success) throw new TypeError(`checkpoint ${index + 1} of the file is not a checkpoint: ${parsed.error.issues[0]?.message ?? 'malformed'}`);
    return parsed.data;
  });
}
