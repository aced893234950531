import type { IntegrityGuarantees } from '../port.js';

/**
 * EventStoreDB keeps no hash beside its events: the store is append-only by itself (no API
 * rewrites an event; streams can be protected by ACLs), and its positions are byte offsets in its
 * transaction log, not 1, 2, 3… So the hash chain is computed from $all when needed: a signed
 * checkpoint covers the digest of the $all range since the previous checkpoint (chained from it),
 * and verification recomputes that digest (integrity/chainReader.ts).
 */
export const ESDB_INTEGRITY: IntegrityGuarantees = { appendOnly: 'store', hashChain: 'computed', densePositions: false };
