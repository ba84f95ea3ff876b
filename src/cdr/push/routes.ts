// Admin REST endpoints of CDR push: settings (GET/PUT /api/settings/cdr-push, secrets write-only),
// the delivery log with backlog and failing-since (GET /api/cdr-push/log), replay
// (POST /api/cdr-push/replay), "send test record" (POST /api/cdr-push/test) and the parked
// records of the park policy (GET /api/cdr-push/parked, POST /api/cdr-push/parked/resend).
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
import { settingsView } from './settings.js';
import { loadCdrPushSettings, saveCdrPushSettings } from './settings-store.js';
import { sendTestRecord } from './test-record.js';

/** What the push routes need: the app's store, clock, time zone and admin guard. */
export type CdrPushDeps = Pick<AppDeps, 'store' | 'clock' | 'timeZone' | 'requireAdmin'> & {
  /** Timeout of "send test record" requests (default 10 s). */
  requestTimeoutMs?: number;
};

const settingsViewSchema = {
  type: 'object',
  properties: {
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

const logSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    last_acknowledged_db_id: nullableInt,
    backlog: { type: 'integer' },
    failing_since: nullableString,
    /** Failing for longer than alert_after_seconds (push:failing). */
    alert: { type: 'boolean' },
    /** Records set aside by the park policy, until resent. */
    parked: { type: 'integer' },
    last_success: nullableString,
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

/** Registers the CDR push routes (all admin-only). */
export async function cdrPushRoutes(app: FastifyInstance, deps: CdrPushDeps): Promise<void> {
  const { store, clock } = deps;
  const guard = { preHandler: deps.requireAdmin };
  const time = new TimeFormatter(deps.timeZone);
  const sender = new HttpSender(
    deps.requestTimeoutMs === undefined ? {} : { timeoutMs: deps.requestTimeoutMs },
  );
  app.addHook('onClose', async () => sender.close());

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
      const body = request.body as Record<string, unknown> | null;
      const made = body?.signing_secret === 'generate' || body?.signing_secret === 'rotate';
      // A secret the server made is shown this once; one the caller gave is not echoed.
      return made && saved.signing_secret !== before.signing_secret
        ? { ...settingsView(saved), signing_secret: saved.signing_secret }
        : settingsView(saved);
    },
  );

  app.get('/api/cdr-push/log', { ...guard, schema: { response: { 200: logSchema } } }, async (request) => {
    const limit = parseLimit((request.query as Record<string, unknown>).limit);
    const [settings, state, entries, parked] = await Promise.all([
      loadCdrPushSettings(store),
      readPushState(store.db),
      listDeliveryLog(store, limit),
      countParked(store),
    ]);
    return {
      enabled: settings.enabled,
      last_acknowledged_db_id: state.ackedDbId,
      backlog: await backlogOf(store, state),
      failing_since: iso(state.failingSinceMs),
      alert: isAlerting(settings, state.failingSinceMs, clock.now()),
      parked,
      last_success: iso(state.lastSuccessMs),
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
  });

  app.post('/api/cdr-push/replay', guard, async (request) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    const from = body?.from_db_id;
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 1) {
      throw new CdrPushError('bad_parameter', 'from_db_id: give a positive integer db_id to send again from');
    }
    const state = await replayFrom(store, from);
    return {
      from_db_id: from,
      last_acknowledged_db_id: state.ackedDbId,
      backlog: await backlogOf(store, state),
    };
  });

  app.get(
    '/api/cdr-push/parked',
    { ...guard, schema: { response: { 200: parkedSchema } } },
    async (request) => {
      const limit = parseLimit((request.query as Record<string, unknown>).limit);
      const parked = await listParked(store, limit);
      return {
        total: await countParked(store),
        data: parked.map((p) => ({
          db_id: p.dbId,
          parked_at: new Date(p.parkedAtMs).toISOString(),
          status: p.status,
          error: p.error,
        })),
      };
    },
  );

  // {"db_id": N} resends one parked record, {"all": true} every one, oldest first.
  app.post('/api/cdr-push/parked/resend', guard, async (request) => {
    const body = request.body as Record<string, unknown> | null | undefined;
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
    const result = await resendParked(store, sender, time, clock, dbId as number | undefined);
    return { resent: result.resent, remaining: result.remaining, error: result.error };
  });

  app.post('/api/cdr-push/test', guard, async () => {
    const a = await sendTestRecord(store, sender, time, clock);
    return { ok: a.ok, status: a.status, latency_ms: Math.round(a.latencyMs), error: a.error, body: a.body };
  });
}
