import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { streams, type EventOf } from '@honeylend/contracts';
import type { Decider } from '../../platform/commands/decider.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';

/**
 * Stream audit-access-<staff id>: what one auditor (or the main admin) unmasked and exported
 * (issue 16: both are events). Nothing here is refused: the state only counts, for the stream
 * view; the rules (a reason, who may) are the routes' zod schemas and access checks.
 */
export type AuditAccessEvent = EventOf<'AuditorUnmasked' | 'AuditExportMade'>;
export interface AuditAccessState {
  unmasked: number;
  exports: number;
}
export type AuditAccessCommand =
  | { type: 'Unmask'; auditorId: string; memberId: string; reason: string; now: string }
  | {
      type: 'RecordExport';
      exportId: string;
      madeBy: string;
      range: { from: number; to: number };
      filters: Record<string, string>;
      format: 'ndjson' | 'csv';
      masked: boolean;
      now: string;
    };

export const auditAccessDecider: Decider<AuditAccessState, AuditAccessCommand, AuditAccessEvent> = {
  initialState: () => ({ unmasked: 0, exports: 0 }),
  evolve: (state, event) => (event.type === 'AuditorUnmasked' ? { ...state, unmasked: state.unmasked + 1 } : { ...state, exports: state.exports + 1 }),
  decide: (command) => {
    if (command.type === 'Unmask') {
      const { auditorId, memberId, reason, now } = command;
      return [{ type: 'AuditorUnmasked', data: { auditorId, memberId, reason, unmaskedAt: now } }];
    }
    const { exportId, madeBy, range, filters, format, masked, now } = command;
    return [{ type: 'AuditExportMade', data: { exportId, madeBy, range, filters, format, masked, madeAt: now } }];
  },
};

/** Puts an export on the log (AuditExportMade) before its first byte is sent: who, what range and filters, which format. */
export async function recordExport(
  ctx: Context,
  deps: ApiDeps,
  { range, filters, format, masked }: { range: { from: number; to: number }; filters: Record<string, string>; format: 'ndjson' | 'csv'; masked: boolean },
): Promise<void> {
  const caller = callerOf(ctx);
  await handleCommand(
    deps.store,
    streams.auditAccess(caller.id),
    auditAccessDecider,
    { type: 'RecordExport', exportId: randomUUID(), madeBy: caller.id, range, filters, format, masked, now: deps.now().toISOString() },
    metadataOf(ctx, caller.id),
  );
}
