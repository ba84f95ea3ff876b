// GET /api/ingest/status (admin): every live source's state. POST /api/cdr (admin, or an API token
// with the scope cdr:ingest): records from an exchange branchgate does not read directly, stored
// once each by the cross-source identity, a body whole or not at all.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../../server/deps.js';
import { sendError } from '../../../server/error-catalogue.js';
import { AppError } from '../../../shared/errors.js';
import { createTimeParser } from '../asterisk-time.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import { GroupMemory } from './group-memory.js';
import { createHttpCdrReader } from './http-ingest.js';
import type { IngestSourceStatus } from './ingest-source.js';
import { StatusTracker } from './status-tracker.js';
import { NO_POSITION, storeSourceRows } from './store-source-rows.js';
import { ADDABLE_KINDS, type StoredIngestSources } from './stored-sources.js';

/** A status as the API writes it (snake_case, times as ISO 8601). */
export function ingestStatusJson(s: IngestSourceStatus) {
  return {
    id: s.id,
    kind: s.kind,
    target: s.target,
    state: s.state,
    records_stored: s.recordsStored,
    duplicates: s.duplicates,
    rejected: s.rejected,
    last_record_at: s.lastRecordAtMs === null ? null : new Date(s.lastRecordAtMs).toISOString(),
    lag_seconds: s.lagSeconds,
    last_error: s.lastError && { message: s.lastError.message, at: new Date(s.lastError.atMs).toISOString() },
  };
}

/** The ingest routes; the HTTP source's own status joins the others in /api/ingest/status. */
export async function ingestRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  recordingUrl?: RecordingUrlBuilder,
  sources?: StoredIngestSources,
): Promise<void> {
  const http = new StatusTracker('http:/api/cdr', 'http', 'POST /api/cdr', deps.clock, {
    info: (f, m) => app.log.info(f, m),
    warn: (f, m) => app.log.warn(f, m),
    error: (f, m) => app.log.error(f, m),
  });
  http.setState('connected');
  const groups = new GroupMemory();
  const read = createHttpCdrReader(createTimeParser(deps.timeZone));

  app.get('/api/ingest/status', { preHandler: deps.requireAdmin }, async () => ({
    sources: [...deps.ingest.statuses(), http.snapshot()].map(ingestStatusJson),
  }));

  const noSources = (reply: FastifyReply) =>
    sendError(reply, 'unavailable', 'this server runs no ingest sources (started without serve)');
  app.get('/api/ingest/sources', { preHandler: deps.requireAdmin }, async (_request, reply) =>
    sources ? { sources: await sources.list() } : noSources(reply),
  );
  app.post<{ Body: { kind: string; source: string } }>(
    '/api/ingest/sources',
    {
      preHandler: deps.requireAdmin,
      schema: {
        body: {
          type: 'object',
          required: ['kind', 'source'],
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: [...ADDABLE_KINDS] },
            source: { type: 'string', minLength: 1, maxLength: 2048 },
          },
        },
      },
    },
    async (request, reply) => {
      if (!sources) return noSources(reply);
      try {
        const entry = await sources.add(request.body.kind, request.body.source, deps.clock.now());
        return reply.code(201).send(entry);
      } catch (err) {
        if (err instanceof AppError) return sendError(reply, err.code, err.message);
        throw err;
      }
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/api/ingest/sources/:id',
    { preHandler: deps.requireAdmin },
    async (request, reply) => {
      if (!sources) return noSources(reply);
      try {
        await sources.remove(request.params.id);
        return reply.code(204).send();
      } catch (err) {
        if (err instanceof AppError) return sendError(reply, err.code, err.message);
        throw err;
      }
    },
  );

  app.post('/api/cdr', { preHandler: deps.requireScope('cdr:ingest') }, async (request, reply) => {
    const parsed = read(request.body);
    if (!parsed.ok) {
      http.rejected('POST /api/cdr', parsed.message);
      return sendError(reply, 'bad_record', parsed.message);
    }
    const now = deps.clock.now();
    let stored: { inserted: number; duplicates: number };
    try {
      stored = await storeSourceRows(
        deps.store,
        parsed.rows.map((row) => ({ row, fields: [] })),
        NO_POSITION,
        now,
        groups,
        recordingUrl,
      );
    } catch (err) {
      http.problem(`store unavailable: ${(err as Error).message}`);
      return sendError(reply, 'store_unavailable', 'the store is unavailable; send the records again');
    }
    http.stored(stored.inserted, stored.duplicates, parsed.rows[parsed.rows.length - 1]?.end ?? null);
    return reply
      .code(stored.inserted > 0 ? 201 : 200)
      .send({ inserted: stored.inserted, duplicates: stored.duplicates });
  });
}
