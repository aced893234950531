import { Readable } from 'node:stream';
import type { AuditLogEvent } from '@honeylend/contracts';
import type { ChainedEvent, RecordedEvent } from '@honeylend/eventstore';
import { csvCell } from '../wallet/staff/withdrawalCsv.js';

export const LOG_CSV_COLUMNS = ['position', 'stream', 'revision', 'type', 'createdAt', 'id', 'actorId', 'ip', 'correlationId', 'data', 'prevHash', 'hash'] as const;

function csvLine(event: AuditLogEvent): string {
  const { position, stream, revision, type, createdAt, id, metadata, data, prevHash, hash } = event;
  return `${[position, stream, revision, type, createdAt, id, metadata.actorId, metadata.ip, metadata.correlationId, JSON.stringify(data), prevHash, hash].map(csvCell).join(',')}\n`;
}

/**
 * An export as it is sent: one event per line (NDJSON: each line the event exactly as the log
 * page shows it, hash included; CSV: the same fields, data as JSON, with a byte-order mark for
 * spreadsheets), streamed while the log is read so a large export never sits in memory.
 */
export function exportBody(events: AsyncIterable<RecordedEvent | ChainedEvent>, show: (event: RecordedEvent | ChainedEvent) => AuditLogEvent, format: 'ndjson' | 'csv'): Readable {
  return Readable.from(
    (async function* () {
      if (format === 'csv') yield `\ufeff${LOG_CSV_COLUMNS.map(csvCell).join(',')}\n`;
      for await (const event of events) {
        const shown = show(event);
        yield format === 'csv' ? csvLine(shown) : `${JSON.stringify(shown)}\n`;
      }
    })(),
    { objectMode: false },
  );
}
