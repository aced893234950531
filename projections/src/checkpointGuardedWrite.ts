import type { Redis } from 'ioredis';
import type { RedisCommand } from './readModelTransaction.js';

/**
 * Runs the commands only if every checkpoint still holds the value it had when the batch was
 * computed, in one Lua script: atomic, and decided by Redis itself rather than by the connection.
 *
 * WATCH/MULTI was not enough. WATCH belongs to a connection, and when Redis ran a batch's EXEC but
 * the connection dropped before its answer came back (a Redis restart, a network cut), the client
 * library re-sent the whole unanswered MULTI…EXEC on the new connection, where no WATCH guarded
 * it: counters were incremented twice (the outage check found `rm:members:stats` one member ahead
 * of a replay). This script re-sent simply finds the checkpoints moved and does nothing.
 *
 * KEYS: the checkpoint keys. ARGV: their expected values ('' for none), then each command as its
 * argument count followed by its arguments.
 */
const GUARDED_WRITE = `
for i, key in ipairs(KEYS) do
  if (redis.call('GET', key) or '') ~= ARGV[i] then return 0 end
end
local i = #KEYS + 1
while i <= #ARGV do
  local argc = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + argc))
  i = i + argc + 1
end
return 1
`;

/** True when the commands ran; false when a checkpoint had moved (another runner or a rebuild got there first). */
export async function writeIfCheckpointsUnchanged(redis: Redis, checkpointKeys: readonly string[], expected: readonly (string | null)[], commands: readonly RedisCommand[]): Promise<boolean> {
  const args: (string | number)[] = expected.map((value) => value ?? '');
  for (const command of commands) args.push(command.length, ...command);
  const ran = await redis.eval(GUARDED_WRITE, checkpointKeys.length, ...checkpointKeys, ...args);
  return ran === 1;
}
