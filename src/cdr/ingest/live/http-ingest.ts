// POST /api/cdr bodies -> the import's SourceRow: one record, or {"data":[...]}, each in the wire
// field names of the pull API (call_id, caller_id, start_time, ...) or in Asterisk's (uniqueid,
// clid, start, ...). Every record of a body is checked before anything is stored, so a body is
// stored whole or not at all; a refusal names the record and the field.
import type { TimeParser } from '../asterisk-time.js';
import { KNOWN_COLUMNS } from '../columns.js';
import { createRowReader, type RowReader, type SourceRow } from '../source-row.js';

/** Asterisk's name of each accepted field (wire names map onto them). */
const ALIASES: Readonly<Record<string, string>> = {
  call_id: 'uniqueid',
  caller_id: 'clid',
  source: 'src',
  destination: 'dst',
  destination_context: 'dcontext',
  start_time: 'start',
  answer_time: 'answer',
  end_time: 'end',
  recording_url: 'recordingfile',
  recordingfile: 'recordingfile',
  initial_destination: 'initial_destination',
  computed_destination: 'computed_destination',
};

/** Every column the mapping understands, in the import's order. */
const COLUMNS: readonly string[] = KNOWN_COLUMNS;

const KNOWN = new Set<string>(COLUMNS);
/** Fields a record must have. */
const REQUIRED = ['uniqueid', 'start', 'disposition'] as const;
/** The most records one body may carry. */
export const MAX_HTTP_RECORDS = 5000;

/** A body's rows, or the first reason it is refused. */
export type HttpIngestResult = { ok: true; rows: SourceRow[] } | { ok: false; message: string };

/** Reads request bodies with wall-clock times in one zone (unix seconds are read as such). */
export function createHttpCdrReader(parseTime: TimeParser): (body: unknown) => HttpIngestResult {
  // A record's layout is the columns it gives (a missing duration is end - start, as in a
  // --columns file without it); readers are kept per layout.
  const readers = new Map<string, RowReader>();
  const readerFor = (columns: string[]): RowReader => {
    const key = columns.join(',');
    let reader = readers.get(key);
    if (!reader) {
      reader = createRowReader({ name: 'HTTP record', columns }, parseTime);
      if (readers.size < 1000) readers.set(key, reader);
    }
    return reader;
  };
  const one = (record: unknown, where: string, index: number): SourceRow | string => {
    if (record === null || typeof record !== 'object' || Array.isArray(record))
      return `${where}: a record must be a JSON object`;
    const values = new Map<string, string>();
    let timestamp: string | undefined;
    for (const [key, raw] of Object.entries(record)) {
      if (key === 'db_id' || key === 'date') continue; // the pull API's own fields, not a source's
      if (key === 'timestamp') {
        // The pull API's unix start; start_time (or start) wins when both are given.
        if (typeof raw === 'string' || typeof raw === 'number') timestamp = String(raw);
        continue;
      }
      const column = ALIASES[key] ?? key;
      if (!KNOWN.has(column))
        return `${where}: unknown field "${key}" (use the pull API's names or Asterisk's CDR names)`;
      if (raw === null) continue;
      if (typeof raw !== 'string' && typeof raw !== 'number')
        return `${where}: field "${key}" must be a string or a number`;
      const text = String(raw);
      const seen = values.get(column);
      if (seen !== undefined && seen !== text)
        return `${where}: fields "${key}" and another name for ${column} disagree`;
      values.set(column, text);
    }
    if (!values.get('start') && timestamp) values.set('start', timestamp);
    const missing = REQUIRED.filter((c) => !values.get(c));
    if (missing.length > 0) return `${where}: missing ${missing.join(', ')}`;
    const columns = COLUMNS.filter((c) => values.has(c));
    const result = readerFor(columns)(
      index,
      columns.map((c) => values.get(c) as string),
    );
    return result.ok ? result.row : `${where}: ${result.reason}`;
  };

  return (body) => {
    const many = body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body;
    const list: unknown[] = many ? ((body as { data: unknown }).data as unknown[]) : [body];
    if (!Array.isArray(list)) return { ok: false, message: 'data: must be an array of records' };
    if (list.length === 0) return { ok: false, message: 'data: no records' };
    if (list.length > MAX_HTTP_RECORDS)
      return { ok: false, message: `data: at most ${MAX_HTTP_RECORDS} records per request` };
    const rows: SourceRow[] = [];
    for (const [i, record] of list.entries()) {
      const row = one(record, many ? `data[${i}]` : 'record', i + 1);
      if (typeof row === 'string') return { ok: false, message: row };
      rows.push(row);
    }
    return { ok: true, rows };
  };
}
