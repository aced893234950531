import type { ChainableCommander } from 'ioredis';

/** ioredis resolves a MULTI even when a command inside it failed; this makes such a failure throw. */
export async function execTransaction(transaction: ChainableCommander): Promise<void> {
  const results = await transaction.exec();
  if (results === null) throw new Error('Redis transaction was aborted');
  const failure = results.find(([error]) => error !== null);
  if (failure?.[0]) throw failure[0];
}
