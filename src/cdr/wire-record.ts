// Renders a stored CDR row as the wire record of DESIGN.md section 5: times in the exchange's time
// zone as "YYYY-MM-DD HH:MM:SS", timestamp as unix seconds, '' for unknowns, never null.

import type { TimeFormatter } from '../shared/wall-time.js';
import type { CdrRow } from '../store/index.js';
import type { CdrWireRecord } from './record.js';

export { TimeFormatter } from '../shared/wall-time.js';

/** The columns a wire record is made of (reads that only render records select just these). */
export const WIRE_COLUMNS = [
  'db_id',
  'uniqueid',
  'clid',
  'src',
  'dcontext',
  'dst',
  'initial_destination',
  'computed_destination',
  'disposition',
  'start_ts',
  'answer_ts',
  'end_ts',
  'recording_url',
] as const satisfies ReadonlyArray<keyof CdrRow>;

/** A stored row as far as its wire record needs it. */
export type WireRow = Pick<CdrRow, (typeof WIRE_COLUMNS)[number]>;

/** The wire record of one stored row. */
export function toWireRecord(row: WireRow, time: TimeFormatter): CdrWireRecord {
  const start = time.format(row.start_ts);
  return {
    db_id: row.db_id,
    call_id: row.uniqueid,
    caller_id: row.clid,
    source: row.src,
    destination_context: row.dcontext,
    destination: row.dst,
    initial_destination: row.initial_destination,
    computed_destination: row.computed_destination,
    disposition: row.disposition,
    timestamp: String(row.start_ts),
    date: start,
    start_time: start,
    answer_time: row.answer_ts === null ? '' : time.format(row.answer_ts),
    end_time: time.format(row.end_ts),
    recording_url: row.recording_url,
  };
}
