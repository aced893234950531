import { resolve } from 'node:path';
import { openEventStore } from '@honeylend/eventstore';
import type { Config } from '../config.js';
import { terminalProgress } from '../progressBar.js';
import { auditSigningKey, trustedAuditKeys } from '../audit/signingKeys.js';
import { restoreBackup } from './restoreBackup.js';
import { writeBackup } from './writeBackup.js';

/**
 * Opens EVENTSTORE_URL for a tool that runs beside the system. Errors are thrown as one line each;
 * the `lending` bin prints them and exits non-zero.
 */
async function withStore<T>(config: Config, use: (store: Awaited<ReturnType<typeof openEventStore>>) => Promise<T>): Promise<T> {
  let store: Awaited<ReturnType<typeof openEventStore>>;
  try {
    store = await openEventStore(config.eventStoreUrl);
  } catch (error) {
    throw new Error(`the event store at EVENTSTORE_URL does not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** `lending backup FILE` */
export async function backupCommand(file: string | undefined, config: Config): Promise<void> {
  if (!file) throw new Error('usage: lending backup FILE (e.g. lending backup honeylend-2026-11-23.ndjson.gz)');
  const path = resolve(file);
  const progress = terminalProgress();
  const result = await withStore(config, (store) =>
    writeBackup(store, path, {
      signingKey: auditSigningKey(config),
      encryptionKey: config.backupEncryptionKey,
      onProgress: (events, position, head) => progress.update(head > 0 ? position / head : 1, `${events} events`),
    }),
  );
  progress.finish(1, `${result.events} events`);
  process.stdout.write(
    `backed up ${result.events} events up to position ${result.lastPosition}, each with its hash and the whole signed, to ${path} (${(result.bytes / 1024).toFixed(0)} KiB gzip${result.encrypted ? ', encrypted with BACKUP_ENCRYPTION_KEY' : ', not encrypted'}) in ${result.seconds.toFixed(1)} s\n`,
  );
}

/** `lending restore FILE` */
export async function restoreCommand(file: string | undefined, config: Config): Promise<void> {
  if (!file) throw new Error('usage: lending restore FILE (into the empty event store EVENTSTORE_URL names)');
  const path = resolve(file);
  const progress = terminalProgress();
  const result = await withStore(config, (store) =>
    restoreBackup(store, path, {
      trustedKeys: trustedAuditKeys(config),
      encryptionKey: config.backupEncryptionKey,
      onProgress: (events, position, head) => progress.update(head > 0 ? position / head : 1, `${events} events`),
    }),
  );
  progress.finish(1, `${result.events} events`);
  process.stdout.write(
    `restored ${result.events} events up to position ${result.lastPosition} from ${path} in ${result.seconds.toFixed(1)} s: verified against its hash chain, ${result.checkpoints} signed checkpoint${result.checkpoints === 1 ? '' : 's'} and its signature; positions ${result.positionsKept ? 'kept' : 'renumbered by the new store'}\n` +
      'now rebuild the read models: lending replay\n',
  );
}
