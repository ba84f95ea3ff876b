// GET /pbx/cdr/data: pages of CDRs in ascending db_id (DESIGN.md section 5). Authentication, any
// one of: Basic extension:key, query extension+key, an admin session cookie. A client that keeps
// failing is answered 429 until its block ends.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ExtensionKeyChecker } from '../auth/index.js';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { hasFilter, parseCdrFilter, whereFilter } from './cdr-filter.js';
import { CDR_WIRE_FIELDS } from './record.js';
import { countCdrRecords, listWireRowsAfter } from './record-store.js';
import { TimeFormatter, toWireRecord, type WireRow } from './wire-record.js';

/** The largest page size; larger limits are clamped to it. */
export const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 10;
const REALM = 'Basic realm="branchgate"';

type Parsed = { ok: true; value: number; text: string } | { ok: false; message: string };

function positiveInt(name: string, raw: unknown, fallback: number): Parsed {
  if (raw === undefined) return { ok: true, value: fallback, text: String(fallback) };
  if (typeof raw !== 'string') return { ok: false, message: `${name}: give it once, as a positive integer` };
  if (!/^[0-9]{1,30}$/.test(raw) || /^0+$/.test(raw)) {
    return { ok: false, message: `${name}: "${raw.slice(0, 40)}" is not a positive integer` };
  }
  const text = raw.replace(/^0+/, '');
  return { ok: true, value: Number(text), text };
}

type Credentials =
  | { kind: 'extension'; number: string; key: string }
  | { kind: 'session' }
  | { kind: 'malformed'; message: string };

function credentialsOf(request: FastifyRequest): Credentials {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) return { kind: 'malformed', message: 'Authorization: only Basic extension:key is accepted here' };
    const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0)
      return { kind: 'malformed', message: 'Authorization: Basic credentials must be extension:key' };
    return { kind: 'extension', number: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
  }
  const q = request.query as Record<string, unknown>;
  if (q.extension !== undefined || q.key !== undefined) {
    if (typeof q.extension !== 'string' || typeof q.key !== 'string') {
      return { kind: 'malformed', message: 'extension and key: give both, once each' };
    }
    return { kind: 'extension', number: q.extension, key: q.key };
  }
  return { kind: 'session' };
}

const wireRecordSchema = {
  type: 'object',
  properties: Object.fromEntries(
    CDR_WIRE_FIELDS.map((f) => [f, { type: f === 'db_id' ? 'integer' : 'string' }]),
  ) as Record<string, { type: string }>,
  required: [...CDR_WIRE_FIELDS],
};

const pageSchema = {
  200: {
    type: 'object',
    properties: {
      data: { type: 'array', items: wireRecordSchema },
      page: { type: 'string' },
      limit: { type: 'string' },
      total_pages: { type: 'integer' },
    },
  },
};

/** The CDR pull route. */
export async function cdrPullRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const time = new TimeFormatter(deps.timeZone);
  const keys = new ExtensionKeyChecker(deps.store, deps.clock);

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const client = `cdr:${request.ip}`;
    const wait = await deps.failures.blockedFor(client);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      await sendError(reply, 'too_many_attempts', `too many failed authentications; try again in ${wait} s`);
      return false;
    }
    const creds = credentialsOf(request);
    if (creds.kind === 'session') {
      const user = await deps.sessionUser(request);
      if (!user) {
        reply.header('WWW-Authenticate', REALM);
        await sendError(
          reply,
          'unauthorized',
          'credentials required: Basic extension:key, extension+key, or a session',
        );
        return false;
      }
      if (!user.isAdmin) {
        await sendError(reply, 'forbidden', `user "${user.username}" is not an administrator`);
        return false;
      }
      return true;
    }
    const verdict = creds.kind === 'malformed' ? 'bad' : await keys.check(creds.number, creds.key);
    if (creds.kind === 'malformed' || verdict === 'bad') {
      await deps.failures.fail(client);
      reply.header('WWW-Authenticate', REALM);
      await sendError(
        reply,
        'unauthorized',
        creds.kind === 'malformed' ? creds.message : 'wrong extension or key',
      );
      return false;
    }
    if (verdict === 'no_access') {
      await sendError(reply, 'forbidden', `extension ${creds.number} has no CDR Access`);
      return false;
    }
    await deps.failures.succeed(client);
    return true;
  }

  app.get('/pbx/cdr/data', { schema: { response: pageSchema } }, async (request, reply) => {
    if (!(await authenticate(request, reply))) return reply;
    const q = request.query as Record<string, unknown>;
    const page = positiveInt('page', q.page, 1);
    if (!page.ok) return sendError(reply, 'bad_parameter', page.message);
    const limit = positiveInt('limit', q.limit, DEFAULT_LIMIT);
    if (!limit.ok) return sendError(reply, 'bad_parameter', limit.message);
    const size = Math.min(limit.value, MAX_LIMIT);
    const skip = (page.value - 1) * size;
    let total: number;
    let rows: WireRow[];
    if (hasFilter(q)) {
      // The console's filters (optional; docs/api.md): a counted, offset query in either order.
      const parsed = parseCdrFilter(q, deps.timeZone);
      if (!parsed.ok) return sendError(reply, 'bad_parameter', parsed.message);
      const f = parsed.filter;
      const counted = await whereFilter(
        deps.store.db.selectFrom('cdr').select((eb) => eb.fn.countAll<number>().as('n')),
        f,
      ).executeTakeFirstOrThrow();
      total = Number(counted.n);
      rows =
        skip < total
          ? await whereFilter(deps.store.db.selectFrom('cdr').selectAll(), f)
              .orderBy('db_id', f.order)
              .offset(skip)
              .limit(size)
              .execute()
          : [];
    } else {
      total = await countCdrRecords(deps.store);
      rows = skip < total ? await listWireRowsAfter(deps.store, skip, size) : [];
    }
    return {
      data: rows.map((row) => toWireRecord(row, time)),
      page: page.text,
      limit: String(size),
      total_pages: Math.ceil(total / size),
    };
  });
}
