import { hash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';

/**
 * The tamper-evident chain of design §10. Each event's link is
 *
 *   hash = SHA-256( "honeylend-event-v1" ‖ position ‖ prev_hash ‖ SHA-256(canonical JSON of the event) )
 *
 * where position is 8 bytes big-endian, prev_hash the 32 bytes of the previous event's hash (32
 * zero bytes before the first event), and the canonical JSON (RFC 8785) is of the object
 * { createdAt, data, id, metadata, revision, stream, type } exactly as the store reads it back.
 * Changing any byte of an event changes its hash; every later hash depends on it through prev_hash.
 */

export const CHAIN_DOMAIN = 'honeylend-event-v1';
/** The prev_hash of the first event of a log. */
export const GENESIS_HASH = '0'.repeat(64);

const DOMAIN_BYTES = Buffer.from(CHAIN_DOMAIN, 'utf8');
const LINK_BYTES = DOMAIN_BYTES.length + 8 + 32 + 32;
const POSITION_AT = DOMAIN_BYTES.length;
const LINK = Buffer.alloc(LINK_BYTES);
DOMAIN_BYTES.copy(LINK, 0);
const HASH_HEX = /^[0-9a-f]{64}$/;

/** The fields of an event that its hash covers (the position is covered by the link itself). */
export interface HashedContent {
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** ISO-8601 with milliseconds, as the store answers it. */
  createdAt: string;
}

export function isHashHex(value: unknown): value is string {
  return typeof value === 'string' && HASH_HEX.test(value);
}

/**
 * SHA-256 of the event's canonical JSON. The top-level keys are fixed and written in their sorted
 * order (createdAt, data, id, metadata, revision, stream, type) without building the object first:
 * verification does this for every event of the log.
 */
export function contentDigest(event: HashedContent): Buffer {
  const canonical =
    `{"createdAt":${canonicalJson(event.createdAt)},"data":${canonicalJson(event.data)},"id":${canonicalJson(event.id)}` +
    `,"metadata":${canonicalJson(event.metadata)},"revision":${canonicalJson(event.revision)},"stream":${canonicalJson(event.stream)},"type":${canonicalJson(event.type)}}`;
  return hash('sha256', canonical, 'buffer');
}

/** The event's link in the chain, as lowercase hex. */
export function eventHash(position: number, prevHash: string, event: HashedContent): string {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`a position is a non-negative integer, got ${position}`);
  if (!isHashHex(prevHash)) throw new TypeError(`prev_hash must be 64 lowercase hex digits, got ${JSON.stringify(prevHash)}`);
  // One buffer for every link (filled and hashed synchronously, so never shared) and one-shot
  // hashes: verification computes this for every event of the log. The domain is written once.
  const link = LINK;
  // Positions stay below 2^53: the 8 big-endian bytes are the high and low 32 bits.
  link.writeUInt32BE(Math.floor(position / 2 ** 32), POSITION_AT);
  link.writeUInt32BE(position >>> 0, POSITION_AT + 4);
  link.write(prevHash, POSITION_AT + 8, 'hex');
  contentDigest(event).copy(link, POSITION_AT + 40);
  return hash('sha256', link, 'hex');
}
