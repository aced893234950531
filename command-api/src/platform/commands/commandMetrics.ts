import { metrics } from '@honeylend/observability';
import { WrongExpectedVersion } from '@honeylend/eventstore';
import { DomainError } from './decider.js';

const outcomes = metrics.counter({
  name: 'honeylend_commands_total',
  help: 'Commands handled, by command type and outcome: accepted (events appended), unchanged (nothing to append), refused (with the domain code), conflict (still losing the race after the last retry), failed (the store or Redis failed)',
  labelNames: ['command', 'outcome', 'code'],
});
const retries = metrics.counter({
  name: 'honeylend_command_conflict_retries_total',
  help: 'Times a command was decided again because another writer appended to its stream first',
  labelNames: ['command'],
});

function typeOf(command: unknown): string {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : 'unknown';
}

/** What became of one command; counted once, when its handling ends. */
export const commandMetrics = {
  accepted(command: unknown): void {
    outcomes.inc({ command: typeOf(command), outcome: 'accepted', code: '' });
  },
  unchanged(command: unknown): void {
    outcomes.inc({ command: typeOf(command), outcome: 'unchanged', code: '' });
  },
  retried(command: unknown): void {
    retries.inc({ command: typeOf(command) });
  },
  failed(command: unknown, error: unknown): void {
    if (error instanceof DomainError) outcomes.inc({ command: typeOf(command), outcome: 'refused', code: error.code });
    else if (error instanceof WrongExpectedVersion) outcomes.inc({ command: typeOf(command), outcome: 'conflict', code: '' });
    else outcomes.inc({ command: typeOf(command), outcome: 'failed', code: '' });
  },
};
