// Admin REST endpoints of CDR push. Destination 1 (the seed's CDR API section): settings
// (GET/PUT /api/settings/cdr-push, secrets write-only), the delivery log with backlog and
// failing-since (GET /api/cdr-push/log), replay (POST /api/cdr-push/replay), "send test record"
// (POST /api/cdr-push/test) and the parked records of the park policy (GET /api/cdr-push/parked,
// POST /api/cdr-push/parked/resend). Every destination: /api/cdr-push/destinations (GET, POST 201)
// and /api/cdr-push/destinations/ID (GET, PATCH, DELETE 204), with /log, /replay, /test, /parked
// and /parked/resend under it.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../server/deps.js';
import { CDR_WIRE_FIELDS } from '../record.js';
import { TimeFormatter } from '../wire-record.js';
import { listDeliveryLog } from './delivery-log.js';
import { HttpSender } from './http-sender.js';
import { countParked, listParked, resendParked } from './parked.js';
import { isAlerting } from './push-alert.js';
import { CdrPushError } from './push-error.js';
import { backlogOf, readPushState, replayFrom } from './push-state.js';
import { type CdrPushSettings, settingsView } from './settings.js';
import {
  createDestination,
  deleteDestination,
  FIRST_DESTINATION,
  listDestinations,
  loadCdrPushSettings,
  saveCdrPushSettings,
} from './settings-store.js';
import { sendTestRecord } from './test-record.js';

/** What the push routes need: the app's store, clock, time zone and admin guard. */
export type CdrPushDeps = Pick<AppDeps, 'store' | 'clock' | 'timeZone' | 'requireAdmin'> & {
  /** Timeout of "send test record" requests (default 10 s). */
  requestTimeoutMs?: number;
};

const settingsViewSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    url: { type: 'string' },
    method: { type: 'string' },
    api_key_set: { type: 'boolean' },
    bearer_token_set: { type: 'boolean' },
    username: { type: 'string' },
    password_set: { type: 'boolean' },
    fields: { type: 'array', items: { type: 'string', enum: [...CDR_WIRE_FIELDS] } },
    interval_seconds: { type: 'integer' },
    batch_size: { type: 'integer' },
    send_history: { type: 'boolean' },
    alert_after_seconds: { type: 'integer' },
    signing_secret_set: { type: 'boolean' },
    signing_rotating: { type: 'boolean' },
    signing_secret: { type: 'string' },
    poison_policy: { type: 'string', enum: ['hold', 'park'] },
    poison_after: { type: 'integer' },
  },
} as const;

const nullableInt = { type: ['integer', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

const statusProperties = {
  enabled: { type: 'boolean' },
  last_acknowledged_db_id: nullableInt,
  backlog: { type: 'integer' },
  failing_since: nullableString,
  /** Failing for longer than alert_after_seconds (push:failing). */
  alert: { type: 'boolean' },
  /** Records set aside by the park policy, until resent. */
  parked: { type: 'integer' },
  last_success: nullableString,
} as const;

const logSchema = {
  type: 'object',
  properties: {
    ...statusProperties,
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string' },
          kind: { type: 'string' },
          first_db_id: nullableInt,
          last_db_id: nullableInt,
          records: { type: 'integer' },
          status: nullableInt,
          latency_ms: { type: 'integer' },
          error: { type: 'string' },
        },
      },
    },
  },
} as const;

const parkedSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          db_id: { type: 'integer' },
          parked_at: { type: 'string' },
          status: nullableInt,
          error: { type: 'string' },
        },
      },
    },
  },
} as const;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function parseLimit(raw: unknown): number {
  if (raw === undefined) return 100;
  if (typeof raw !== 'string' || !/^[0-9]{1,6}$/.test(raw) || Number(raw) < 1) {
    throw new CdrPushError('bad_parameter', 'limit: must be a positive integer');
  }
  return Math.min(Number(raw), 1000);
}

/** The destination id in a route's path; bad_parameter when it is not one. */
function destinationOf(params: unknown): number {
  const raw = (params as Record<string, unknown>).id;
  if (typeof raw !== 'string' || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new CdrPushError('bad_parameter', `destination: "${String(raw)}" is not a destination id`);
  }
  return Number(raw);
}

/** Whether the caller asked for a new secret, which is then shown this once. */
function madeSecret(body: unknown, before: string, after: string): boolean {
  const asked = (body as Record<string, unknown> | null)?.signing_secret;
  return (asked === 'generate' || asked === 'rotate') && after !== before;
}

/** Registers the CDR push routes (all admin-only). */
export async function cdrPushRoutes(app: FastifyInstance, deps: CdrPushDeps): Promise<void> {
  const { store, clock } = deps;
  const guard = { preHandler: deps.requireAdmin };
  const time = new TimeFormatter(deps.timeZone);
  const sender = new HttpSender(
    deps.requestTimeoutMs === undefined ? {} : { timeoutMs: deps.requestTimeoutMs },
  );
  app.addHook('onClose', async () => sender.close());

  /** A destination's delivery status: cursor, backlog, failing-since, alert, parked. */
  async function statusOf(destination: number, settings: CdrPushSettings) {
    const [state, parked] = await Promise.all([
      readPushState(store.db, destination),
      countParked(store, destination),
    ]);
    return {
      enabled: settings.enabled,
      last_acknowledged_db_id: state.ackedDbId,
      backlog: await backlogOf(store, state),
      failing_since: iso(state.failingSinceMs),
      alert: isAlerting(settings, state.failingSinceMs, clock.now()),
      parked,
      last_success: iso(state.lastSuccessMs),
    };
  }

  async function log(destination: number, query: unknown) {
    const limit = parseLimit((query as Record<string, unknown>).limit);
    const settings = await loadCdrPushSettings(store, destination);
    const [status, entries] = await Promise.all([
      statusOf(destination, settings),
      listDeliveryLog(store, limit, destination),
    ]);
    return {
      ...status,
      data: entries.map((e) => ({
        at: new Date(e.atMs).toISOString(),
        kind: e.kind,
        first_db_id: e.firstDbId,
        last_db_id: e.lastDbId,
        records: e.records,
        status: e.status,
        latency_ms: e.latencyMs,
        error: e.error,
      })),
    };
  }

  async function replay(destination: number, body: unknown) {
    const from = (body as Record<string, unknown> | null | undefined)?.from_db_id;
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 1) {
      throw new CdrPushError('bad_parameter', 'from_db_id: give a positive integer db_id to send again from');
    }
    await loadCdrPushSettings(store, destination);
    const state = await replayFrom(store, from, destination);
    return {
      from_db_id: from,
      last_acknowledged_db_id: state.ackedDbId,
      backlog: await backlogOf(store, state),
    };
  }

  async function parked(destination: number, query: unknown) {
    const limit = parseLimit((query as Record<string, unknown>).limit);
    await loadCdrPushSettings(store, destination);
    const list = await listParked(store, limit, destination);
    return {
      total: await countParked(store, destination),
      data: list.map((p) => ({
        db_id: p.dbId,
        parked_at: new Date(p.parkedAtMs).toISOString(),
        status: p.status,
        error: p.error,
      })),
    };
  }

  // {"db_id": N} resends one parked record, {"all": true} every one, oldest first.
  async function resend(destination: number, raw: unknown) {
    const body = raw as Record<string, unknown> | null | undefined;
    const dbId = body?.db_id;
    if (dbId !== undefined && (typeof dbId !== 'number' || !Number.isSafeInteger(dbId) || dbId < 1)) {
      throw new CdrPushError('bad_parameter', 'db_id: give the db_id of a parked record');
    }
    if (dbId === undefined && body?.all !== true) {
      throw new CdrPushError(
        'bad_parameter',
        'db_id: give a parked record\'s db_id, or "all": true to resend every one',
      );
    }
    const result = await resendParked(store, sender, time, clock, dbId as number | undefined, destination);
    return { resent: result.resent, remaining: result.remaining, error: result.error };
  }

  async function test(destination: number) {
    const a = await sendTestRecord(store, sender, time, clock, destination);
    return { ok: a.ok, status: a.status, latency_ms: Math.round(a.latencyMs), error: a.error, body: a.body };
  }

  // Destination 1, at the seed's places.
  app.get(
    '/api/settings/cdr-push',
    { ...guard, schema: { response: { 200: settingsViewSchema } } },
    async () => settingsView(await loadCdrPushSettings(store)),
  );

  // The body is validated by applyPatch, not by a schema, so every error names its field the same
  // way for REST and CLI.
  app.put(
    '/api/settings/cdr-push',
    { ...guard, schema: { response: { 200: settingsViewSchema } } },
    async (request) => {
      const before = await loadCdrPushSettings(store);
      const saved = await saveCdrPushSettings(store, request.body, clock.now());
      // A secret the server made is shown this once; one the caller gave is not echoed.
      return madeSecret(request.body, before.signing_secret, saved.signing_secret)
        ? { ...settingsView(saved), signing_secret: saved.signing_secret }
        : settingsView(saved);
    },
  );
  app.get('/api/cdr-push/log', { ...guard, schema: { response: { 200: logSchema } } }, (request) =>
    log(FIRST_DESTINATION, request.query),
  );
  app.post('/api/cdr-push/replay', guard, (request) => replay(FIRST_DESTINATION, request.body));
  app.get('/api/cdr-push/parked', { ...guard, schema: { response: { 200: parkedSchema } } }, (request) =>
    parked(FIRST_DESTINATION, request.query),
  );
  app.post('/api/cdr-push/parked/resend', guard, (request) => resend(FIRST_DESTINATION, request.body));
  app.post('/api/cdr-push/test', guard, () => test(FIRST_DESTINATION));

  // Every destination.
  const destinationSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      ...settingsViewSchema.properties,
      status: { type: 'object', properties: statusProperties },
    },
  } as const;
  const base = '/api/cdr-push/destinations';
  app.get(
    base,
    {
      ...guard,
      schema: {
        response: {
          200: { type: 'object', properties: { data: { type: 'array', items: destinationSchema } } },
        },
      },
    },
    async () => ({
      data: await Promise.all(
        (await listDestinations(store)).map(async (d) => ({
          id: d.id,
          ...settingsView(d.settings),
          status: await statusOf(d.id, d.settings),
        })),
      ),
    }),
  );
  app.post(base, { ...guard, schema: { response: { 201: destinationSchema } } }, async (request, reply) => {
    const made = await createDestination(store, request.body, clock.now());
    reply.code(201);
    const view = {
      id: made.id,
      ...settingsView(made.settings),
      status: await statusOf(made.id, made.settings),
    };
    return madeSecret(request.body, '', made.settings.signing_secret)
      ? { ...view, signing_secret: made.settings.signing_secret }
      : view;
  });
  app.get(`${base}/:id`, { ...guard, schema: { response: { 200: destinationSchema } } }, async (request) => {
    const id = destinationOf(request.params);
    const settings = await loadCdrPushSettings(store, id);
    return { id, ...settingsView(settings), status: await statusOf(id, settings) };
  });
  app.patch(
    `${base}/:id`,
    { ...guard, schema: { response: { 200: destinationSchema } } },
    async (request) => {
      const id = destinationOf(request.params);
      const before = await loadCdrPushSettings(store, id);
      const saved = await saveCdrPushSettings(store, request.body, clock.now(), id);
      const view = { id, ...settingsView(saved), status: await statusOf(id, saved) };
      return madeSecret(request.body, before.signing_secret, saved.signing_secret)
        ? { ...view, signing_secret: saved.signing_secret }
        : view;
    },
  );
  app.delete(`${base}/:id`, guard, async (request, reply) => {
    await deleteDestination(store, destinationOf(request.params));
    return reply.code(204).send();
  });
  app.get(`${base}/:id/log`, { ...guard, schema: { response: { 200: logSchema } } }, (request) =>
    log(destinationOf(request.params), request.query),
  );
  app.post(`${base}/:id/replay`, guard, (request) => replay(destinationOf(request.params), request.body));
  app.get(`${base}/:id/parked`, { ...guard, schema: { response: { 200: parkedSchema } } }, (request) =>
    parked(destinationOf(request.params), request.query),
  );
  app.post(`${base}/:id/parked/resend`, guard, (request) =>
    resend(destinationOf(request.params), request.body),
  );
  app.post(`${base}/:id/test`, guard, (request) => test(destinationOf(request.params)));
}
