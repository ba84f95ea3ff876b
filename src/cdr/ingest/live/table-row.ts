// Pure: one row of a FreePBX/Asterisk cdr table -> a typed SourceRow (as a CSV line would give),
// or why it is refused. A missing column reads as '' (null for sequence); a NULL in calldate, src,
// dst, disposition, duration or billsec refuses the row, so nothing half-made is stored.
import { createHash } from 'node:crypto';
import type { TimeParser } from '../asterisk-time.js';
import type { SourceRow } from '../source-row.js';
import type { TableRow, TableShape } from './cdr-table-reader.js';
import type { LiveRow } from './store-source-rows.js';

/** A row read, or refused with the reason. */
export type TableRowResult = { ok: true; live: LiveRow } | { ok: false; reason: string };

const NOT_NULL = ['calldate', 'src', 'dst', 'disposition', 'duration', 'billsec'] as const;
// cdr_adaptive_odbc writes amaflags as a number into an integer column (ast_channel_amaflags2string).
const AMAFLAGS: Record<string, string> = { '1': 'OMIT', '2': 'BILLING', '3': 'DOCUMENTATION' };
const INTEGER = /^\d{1,10}$/;

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

/**
 * Where a row is, for messages: `id=N` with an id column, else uniqueid, sequence and calldate.
 */
export function rowWhere(row: TableRow, shape: TableShape): string {
  if (shape.idColumn) return `${shape.idColumn}=${text(row.values[shape.idColumn])}`;
  const seq = shape.columns.includes('sequence') ? ` sequence=${text(row.values.sequence)}` : '';
  return `uniqueid=${text(row.values.uniqueid)}${seq} calldate=${row.calldate}`;
}

/** A key telling rows apart within the poller's window: the id, else a hash of every value. */
export function rowKey(row: TableRow, shape: TableShape): string {
  if (shape.idColumn) return `id:${text(row.values[shape.idColumn])}`;
  const all = shape.columns.map((c) => (row.values[c] === null ? '\u0000' : text(row.values[c])));
  return createHash('sha256').update(all.join('\u001f')).digest('base64');
}

/** Reads one row; `parseTime` reads calldate (in the source's zone, or UTC for timestamptz). */
export function readTableRow(row: TableRow, shape: TableShape, parseTime: TimeParser): TableRowResult {
  const has = (c: string): boolean => shape.columns.includes(c);
  for (const c of NOT_NULL) {
    if (has(c) && (row.values[c] === null || row.values[c] === undefined)) {
      return { ok: false, reason: `column ${c} is NULL` };
    }
  }
  const start = parseTime(row.calldate);
  if (start === null)
    return { ok: false, reason: `column calldate: ${JSON.stringify(row.calldate)} is not a time` };
  const num = (c: string): number | null | string => {
    if (!has(c) || row.values[c] === null) return null;
    const t = text(row.values[c]);
    return INTEGER.test(t) ? Number(t) : `column ${c}: ${JSON.stringify(t)} is not a whole number`;
  };
  const duration = num('duration');
  const billsec = num('billsec');
  const sequence = num('sequence');
  for (const v of [duration, billsec, sequence]) if (typeof v === 'string') return { ok: false, reason: v };
  const end = start + ((duration as number | null) ?? 0);
  const bill = (billsec as number | null) ?? 0;
  // The table has no answer time: a call billed for billsec seconds was answered billsec before its end.
  const answer = bill > 0 ? end - bill : null;
  const amaRaw = text(row.values.amaflags);
  const source: SourceRow = {
    line: 0,
    accountcode: text(row.values.accountcode),
    src: text(row.values.src),
    dst: text(row.values.dst),
    dcontext: text(row.values.dcontext),
    clid: text(row.values.clid),
    channel: text(row.values.channel),
    dstchannel: text(row.values.dstchannel),
    lastapp: text(row.values.lastapp),
    lastdata: text(row.values.lastdata),
    start,
    answer,
    end,
    duration: (duration as number | null) ?? 0,
    billsec: bill,
    disposition: text(row.values.disposition),
    amaflags: AMAFLAGS[amaRaw] ?? (amaRaw === '0' ? 'Unknown' : amaRaw),
    uniqueid: text(row.values.uniqueid),
    userfield: text(row.values.userfield),
    peeraccount: text(row.values.peeraccount),
    linkedid: text(row.values.linkedid),
    sequence: sequence as number | null,
    initialDestination: '',
    computedDestination: '',
    recordingfile: text(row.values.recordingfile),
  };
  // The columns as read, for messages; the identity comes from the typed row (cdr/ingest/identity.ts).
  const fields = shape.columns.map((c) => (c === 'calldate' ? row.calldate : text(row.values[c])));
  return { ok: true, live: { row: source, fields } };
}
