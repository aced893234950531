export * from './port.js';
export { IdempotentRetryMismatch } from './idempotentRetry.js';
export { openEventStore, SUPPORTED_EVENT_STORE_URLS, type OpenEventStoreOptions } from './openEventStore.js';
export { PgliteEventStore, type PgliteEventStoreOptions } from './pgliteEventStore.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgresEventStore.js';
export { EsdbEventStore, type EsdbEventStoreOptions } from './esdb/esdbEventStore.js';
export { instrumentEventStore } from './instrumentedEventStore.js';
// conformance.ts is left out on purpose: it imports vitest, which production code must not load.
export { canonicalJson } from './integrity/canonicalJson.js';
export { CHAIN_DOMAIN, GENESIS_HASH, contentDigest, eventHash, isHashHex, type HashedContent } from './integrity/eventHash.js';
export { CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, isSignedByTrustedKey, parseCheckpointFile, readStoredCheckpoints, signCheckpoint, type Checkpoint, type StoredCheckpoint } from './integrity/checkpoint.js';
export { SigningKeyError, loadOrCreateSigningKeyFile, parsePublicKey, parseSigningKey, publicKeyFingerprint, publicKeyPem, publicKeyText } from './integrity/signingKey.js';
export { chainPages, type ChainReadOptions } from './integrity/chainReader.js';
export { FAILURE_REASON_TEXT, verifyLog, type FirstBad, type VerifyFailureReason, type VerifyOptions, type VerifyProgress, type VerifyReport } from './integrity/verifyLog.js';
export { AuditCheckpointer, ChainBrokenError, type CheckpointerOptions } from './integrity/checkpointer.js';
export type { ChainMigrationProgress } from './sql/hashChainSchema.js';
export { verifyLogInParallel } from './integrity/parallelVerify.js';
