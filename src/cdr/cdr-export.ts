// The filtered records as export text, a page at a time (keyset on db_id), so an export of any
// size holds one page in memory: CSV (a header row, then the 15 wire fields) or one JSON array.
// GET /pbx/cdr/export and `branchgate cdr export` both write these chunks.
import { stringify } from 'csv-stringify/sync';
import type { CdrRow, Store } from '../store/index.js';
import { type CdrFilter, whereFilter } from './cdr-filter.js';
import { CDR_WIRE_FIELDS } from './record.js';
import { type TimeFormatter, toWireRecord } from './wire-record.js';

const PAGE = 1000;

/** The filtered records in the filter's order, a page at a time. */
export async function* filteredPages(store: Store, f: CdrFilter): AsyncGenerator<CdrRow[]> {
  let after: number | null = null;
  for (;;) {
    let q = whereFilter(store.db.selectFrom('cdr').selectAll(), f);
    if (after !== null) q = q.where('db_id', f.order === 'asc' ? '>' : '<', after);
    const rows = await q.orderBy('db_id', f.order).limit(PAGE).execute();
    if (rows.length === 0) return;
    yield rows;
    after = (rows[rows.length - 1] as CdrRow).db_id;
  }
}

/** Export text chunks; `onRows` counts records as they go (for a progress bar). */
export async function* exportChunks(
  store: Store,
  f: CdrFilter,
  format: 'csv' | 'json',
  time: TimeFormatter,
  onRows: (n: number) => void = () => undefined,
): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...CDR_WIRE_FIELDS]]);
  else yield '[';
  let first = true;
  for await (const rows of filteredPages(store, f)) {
    const wire = rows.map((r) => toWireRecord(r, time));
    if (format === 'csv') yield stringify(wire.map((w) => CDR_WIRE_FIELDS.map((k) => w[k])));
    else {
      const text = wire.map((w) => JSON.stringify(w)).join(',\n');
      yield first ? `\n${text}` : `,\n${text}`;
    }
    first = false;
    onRows(rows.length);
  }
  if (format === 'json') yield '\n]\n';
}
