// GET /pbx/cdr/export?format=csv|json[&filters]: every record the console's filters select, as CSV
// (a header row, then the 15 wire fields) or as one JSON array, streamed from the store a page at a
// time so an export of any size holds one page in memory. Admin session or a cdr:read token.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import type { CdrRow } from '../store/index.js';
import { type CdrFilter, parseCdrFilter, whereFilter } from './cdr-filter.js';
import { CDR_WIRE_FIELDS } from './record.js';
import { TimeFormatter, toWireRecord } from './wire-record.js';

const PAGE = 1000;

/** The filtered records in the filter's order, a page at a time (keyset on db_id). */
async function* pagesOf(deps: AppDeps, f: CdrFilter): AsyncGenerator<CdrRow[]> {
  let after: number | null = null;
  for (;;) {
    let q = whereFilter(deps.store.db.selectFrom('cdr').selectAll(), f);
    if (after !== null) q = q.where('db_id', f.order === 'asc' ? '>' : '<', after);
    const rows = await q.orderBy('db_id', f.order).limit(PAGE).execute();
    if (rows.length === 0) return;
    yield rows;
    after = (rows[rows.length - 1] as CdrRow).db_id;
  }
}

async function* csvLines(deps: AppDeps, f: CdrFilter, time: TimeFormatter): AsyncGenerator<string> {
  yield stringify([[...CDR_WIRE_FIELDS]]);
  for await (const rows of pagesOf(deps, f)) {
    yield stringify(rows.map((r) => CDR_WIRE_FIELDS.map((k) => toWireRecord(r, time)[k])));
  }
}

async function* jsonChunks(deps: AppDeps, f: CdrFilter, time: TimeFormatter): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const rows of pagesOf(deps, f)) {
    const text = rows.map((r) => JSON.stringify(toWireRecord(r, time))).join(',\n');
    yield first ? `\n${text}` : `,\n${text}`;
    first = false;
  }
  yield '\n]\n';
}

/** The export route. */
export async function cdrExportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const time = new TimeFormatter(deps.timeZone);
  app.get('/pbx/cdr/export', { preHandler: deps.requireScope('cdr:read') }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const format = q.format ?? 'csv';
    if (format !== 'csv' && format !== 'json')
      return sendError(reply, 'bad_parameter', `format: "${String(format)}" is not csv or json`);
    const parsed = parseCdrFilter(q, deps.timeZone);
    if (!parsed.ok) return sendError(reply, 'bad_parameter', parsed.message);
    const stamp = new Date(deps.clock.now()).toISOString().slice(0, 10);
    reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="cdr-${stamp}.${format}"`);
    const chunks =
      format === 'csv' ? csvLines(deps, parsed.filter, time) : jsonChunks(deps, parsed.filter, time);
    return reply.send(Readable.from(chunks));
  });
}
