// GET /pbx/cdr/export?format=csv|json[&filters]: every record the console's filters select, as CSV
// (a header row, then the 15 wire fields) or as one JSON array, streamed from the store a page at a
// time so an export of any size holds one page in memory. Admin session or a cdr:read token.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { exportChunks } from './cdr-export.js';
import { parseCdrFilter } from './cdr-filter.js';
import { TimeFormatter } from './wire-record.js';

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
    const chunks = exportChunks(deps.store, parsed.filter, format, time);
    return reply.send(Readable.from(chunks));
  });
}
