// Webhooks as the REST API, the CLI and the console manage them: a URL, the events it wants and an
// optional Standard Webhooks secret (generated unless the caller gives one or asks for none; shown
// once). A new webhook starts after the newest event: it gets what happens from then on.
import type { Selectable } from 'kysely';
import { AppError } from '../shared/errors.js';
import { generateSecret, secretKey } from '../shared/standard-webhooks.js';
import type { Store, WebhookTable } from '../store/index.js';
import { EVENT_TYPES, type EventType, isEventType, lastEventId } from './events.js';

/** A webhook as shown (never its secrets). */
export interface WebhookInfo {
  id: number;
  url: string;
  events: EventType[];
  signed: boolean;
  /** A previous secret still signs (a rotation is under way). */
  rotating: boolean;
  createdAtMs: number;
  /** The last event delivered (or skipped as not subscribed). */
  cursor: number;
  failingSinceMs: number | null;
  lastError: string | null;
  nextAttemptMs: number | null;
}

type WebhookRow = Selectable<WebhookTable>;

/** The JSON form of a webhook. */
export function webhookJson(w: WebhookInfo) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    signed: w.signed,
    rotating: w.rotating,
    created_at_ms: w.createdAtMs,
    cursor: w.cursor,
    failing_since_ms: w.failingSinceMs,
    last_error: w.lastError,
    next_attempt_ms: w.nextAttemptMs,
  };
}

export function webhookInfo(r: WebhookRow): WebhookInfo {
  return {
    id: Number(r.id),
    url: r.url,
    events: r.events.split(' ').filter(isEventType),
    signed: r.secret !== null,
    rotating: r.previous_secret !== null,
    createdAtMs: Number(r.created_ms),
    cursor: Number(r.cursor),
    failingSinceMs: r.failing_since_ms === null ? null : Number(r.failing_since_ms),
    lastError: r.last_error,
    nextAttemptMs: r.next_attempt_ms === null ? null : Number(r.next_attempt_ms),
  };
}

const bad = (message: string) => new AppError('bad_webhook', message);

function checkUrl(value: unknown): string {
  if (typeof value !== 'string') throw bad('url: give the http:// or https:// address to deliver to');
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw bad(`url: "${value}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw bad(`url: must be http:// or https://, not ${u.protocol}//`);
  if (value.length > 2048) throw bad('url: longer than 2048 characters');
  return value;
}

function checkEvents(value: unknown): EventType[] {
  if (!Array.isArray(value) || value.length === 0)
    throw bad(`events: give a list of one or more of ${EVENT_TYPES.join(', ')}`);
  const out: EventType[] = [];
  for (const e of value) {
    if (typeof e !== 'string' || !isEventType(e))
      throw bad(`events: ${JSON.stringify(e)} is not one of ${EVENT_TYPES.join(', ')}`);
    if (!out.includes(e)) out.push(e);
  }
  return out;
}

function checkSecret(value: string): string {
  try {
    secretKey(value);
  } catch (err) {
    throw bad((err as Error).message);
  }
  return value.startsWith('whsec_') ? value : `whsec_${value}`;
}

/** What POST /api/webhooks takes. */
export interface NewWebhook {
  url?: unknown;
  events?: unknown;
  /** Absent: one is generated. null: deliveries are not signed. A string: that secret. */
  secret?: unknown;
}

/** Adds a webhook; returns it and its secret (shown this once). */
export async function addWebhook(
  store: Store,
  input: NewWebhook,
  nowMs: number,
): Promise<{ webhook: WebhookInfo; secret: string | null }> {
  const url = checkUrl(input.url);
  const events = checkEvents(input.events);
  let secret: string | null;
  if (input.secret === undefined) secret = generateSecret();
  else if (input.secret === null) secret = null;
  else if (typeof input.secret === 'string') secret = checkSecret(input.secret);
  else throw bad('secret: a whsec_ string, or null for unsigned deliveries');
  const row = await store.db.transaction().execute(async (trx) =>
    trx
      .insertInto('webhooks')
      .values({
        url,
        events: events.join(' '),
        secret,
        previous_secret: null,
        created_ms: nowMs,
        cursor: await lastEventId(trx),
        next_attempt_ms: null,
        failing_since_ms: null,
        last_error: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return { webhook: webhookInfo(row), secret };
}

/** Every webhook, oldest first. */
export async function listWebhooks(store: Store): Promise<WebhookInfo[]> {
  return (await store.db.selectFrom('webhooks').selectAll().orderBy('id').execute()).map(webhookInfo);
}

async function rowOf(store: Store, id: number): Promise<WebhookRow> {
  const row = await store.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('no_such_webhook', `no webhook ${id}`);
  return row;
}

/** What PATCH /api/webhooks/ID takes. */
export interface WebhookPatch {
  url?: unknown;
  events?: unknown;
  /** "rotate": a new secret signs, the old one goes on signing until end_rotation. A string: that secret. null: unsigned. */
  secret?: unknown;
  /** true: the previous secret stops signing. */
  end_rotation?: unknown;
}

/** Changes a webhook; returns it and a new secret when one was made. */
export async function updateWebhook(
  store: Store,
  id: number,
  patch: WebhookPatch,
): Promise<{ webhook: WebhookInfo; secret: string | null }> {
  const row = await rowOf(store, id);
  const set: { url?: string; events?: string; secret?: string | null; previous_secret?: string | null } = {};
  let shown: string | null = null;
  if (patch.url !== undefined) set.url = checkUrl(patch.url);
  if (patch.events !== undefined) set.events = checkEvents(patch.events).join(' ');
  if (patch.secret === 'rotate') {
    shown = generateSecret();
    set.previous_secret = row.secret;
    set.secret = shown;
  } else if (patch.secret === null) {
    set.secret = null;
    set.previous_secret = null;
  } else if (typeof patch.secret === 'string') {
    shown = checkSecret(patch.secret);
    set.previous_secret = row.secret;
    set.secret = shown;
  } else if (patch.secret !== undefined) {
    throw bad('secret: "rotate", a whsec_ string, or null');
  }
  if (patch.end_rotation === true) set.previous_secret = null;
  else if (patch.end_rotation !== undefined && patch.end_rotation !== false)
    throw bad('end_rotation: true or false');
  if (Object.keys(set).length > 0)
    await store.db.updateTable('webhooks').set(set).where('id', '=', id).execute();
  return { webhook: webhookInfo(await rowOf(store, id)), secret: shown };
}

/** Removes a webhook and its attempt log. */
export async function removeWebhook(store: Store, id: number): Promise<void> {
  await rowOf(store, id);
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_attempts').where('webhook_id', '=', id).execute();
    await trx.deleteFrom('webhooks').where('id', '=', id).execute();
  });
}

/** One delivery attempt as the log shows it. */
export interface WebhookAttempt {
  eventId: number;
  atMs: number;
  status: number | null;
  latencyMs: number;
  error: string;
}

/** A webhook's newest attempts first. */
export async function listAttempts(store: Store, id: number, limit = 100): Promise<WebhookAttempt[]> {
  await rowOf(store, id);
  const rows = await store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('webhook_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    eventId: Number(r.event_id),
    atMs: Number(r.at_ms),
    status: r.status,
    latencyMs: r.latency_ms,
    error: r.error,
  }));
}
