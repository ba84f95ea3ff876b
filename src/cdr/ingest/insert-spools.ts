// Pass 2 of the import: the spooled rows, in file order -> NewCdrRecord with the destinations of
// their call group -> `insert`, one transaction per batch.
import type { Progress } from '../../shared/progress.js';
import type { NewCdrRecord } from '../record.js';
import { type GroupIndex, groupKeyOf } from './group-index.js';
import { readLineBatches } from './line-reader.js';
import { toNewCdrRecord } from './map-record.js';
import { decodeSpoolEntry } from './spool.js';

/** Stores a batch of records in one transaction; says how many were new. */
export type InsertBatch = (records: NewCdrRecord[]) => Promise<{ inserted: number; duplicates: number }>;

/** Maps and inserts every spooled row; `groups` must be resolved. */
export async function insertSpools(
  spools: readonly string[],
  groups: GroupIndex,
  insert: InsertBatch,
  batchSize: number,
  progress: Progress,
): Promise<{ inserted: number; duplicates: number }> {
  let inserted = 0;
  let duplicates = 0;
  let pending: NewCdrRecord[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const r = await insert(pending);
    inserted += r.inserted;
    duplicates += r.duplicates;
    progress.increment(pending.length);
    pending = [];
  };
  for (const spool of spools) {
    for await (const batch of readLineBatches(spool, { maxLineLength: Number.POSITIVE_INFINITY })) {
      for (const text of batch.lines) {
        if (text === '') continue;
        const { identity, target, row } = decodeSpoolEntry(text);
        const initial = groups.initialDestination(groupKeyOf(row), row.dst, target);
        pending.push(toNewCdrRecord(row, identity, initial, target));
        if (pending.length >= batchSize) await flush();
      }
    }
  }
  await flush();
  return { inserted, duplicates };
}
