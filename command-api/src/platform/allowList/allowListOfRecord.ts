import { streams, type AllowedIpDoc } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';

/**
 * The allow-list as the event log records it, folded as the allow-list projection folds it. Read
 * when the read model has no document (Redis restarted empty, a key evicted, a rebuild under way):
 * a missing document is never taken to mean "no list", which would open the panel to every
 * address. Should the log be unreachable too, the read fails and the request with it.
 */
export async function allowListOfRecord(store: EventStore): Promise<AllowedIpDoc[]> {
  let rules: AllowedIpDoc[] = [];
  for (const event of await store.readStream(streams.allowedIps)) {
    if (event.type === 'AllowedIpAdded') {
      const data = event.data as { ruleId: string; ipAddress: string; description: string; addedAt: string };
      rules = [...rules, { id: data.ruleId, ipAddress: data.ipAddress, description: data.description, createdAt: data.addedAt, createdBy: event.metadata.actorId ?? null }];
    } else if (event.type === 'AllowedIpRemoved') {
      const data = event.data as { ruleId: string };
      rules = rules.filter((rule) => rule.id !== data.ruleId);
    }
  }
  return rules;
}
