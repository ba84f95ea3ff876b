// The one storing step of the Master.csv follower and the CDR table poller: typed source rows ->
// records -> one insert transaction, with the source's read position saved in that transaction.
import type { Store } from '../../../store/index.js';
import { type InTransaction, insertCdrRecords } from '../../record-store.js';
import { dialTarget } from '../destination.js';
import { cdrIdentity } from '../identity.js';
import { toNewCdrRecord } from '../map-record.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import type { SourceRow } from '../source-row.js';
import type { GroupMemory } from './group-memory.js';

/** One row as a source read it: typed, plus its fields as read (for messages). */
export interface LiveRow {
  row: SourceRow;
  fields: readonly string[];
}

/** The transaction step of a source with no read position to save (AMI, HTTP). */
export const NO_POSITION: InTransaction = async () => {
  // AMI and HTTP have no position: nothing else goes in the records' transaction
};

/** What storing a batch did. */
export interface StoredBatch {
  inserted: number;
  duplicates: number;
}

/**
 * Stores `rows` (possibly none) and runs `also` (the position write) in the same transaction.
 * With `groups`, initial_destination comes from the records of the call seen so far; with
 * `recordingUrl`, recording_url is built by the operator's template.
 */
export async function storeSourceRows(
  store: Store,
  rows: readonly LiveRow[],
  also: InTransaction,
  nowMs: number,
  groups?: GroupMemory,
  recordingUrl?: RecordingUrlBuilder,
): Promise<StoredBatch> {
  const records = rows.map(({ row }) => {
    const target = dialTarget(row.dstchannel, row.lastapp, row.lastdata);
    const initial = groups ? groups.initialDestination(row, target) : row.dst || target;
    const record = toNewCdrRecord(row, cdrIdentity(row), initial, target);
    if (recordingUrl) record.recordingUrl = recordingUrl(row);
    return record;
  });
  const r = await insertCdrRecords(store, records, nowMs, also);
  return { inserted: r.inserted, duplicates: r.duplicates };
}
