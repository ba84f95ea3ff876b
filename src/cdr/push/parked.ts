// Parked records (the `park` poison policy): a record the receiver refused with the same 4xx
// poison_after times in a row is set aside here, logged (kind "park") and counted, and delivery
// goes on with the next record in order. Parked records are listed, and resent one by one or all
// at once (kind "resend"): a record leaves the list only when the receiver acknowledges it.
import type { Clock } from '../../shared/clock.js';
import type { CdrRow, Store } from '../../store/index.js';
import { type TimeFormatter, toWireRecord } from '../wire-record.js';
import { appendDeliveryLogs, type DeliveryAttempt } from './delivery-log.js';
import type { HttpSender } from './http-sender.js';
import { CdrPushError } from './push-error.js';
import { buildPushRequest } from './request-body.js';
import { loadCdrPushSettings } from './settings-store.js';

/** One parked record as listed. */
export interface ParkedRecord {
  dbId: number;
  parkedAtMs: number;
  /** The status of the last refusal. */
  status: number | null;
  error: string;
}

/**
 * Parks the records of a refused request (idempotent: a record parked twice stays one entry) and
 * logs it; the caller then moves the cursor past them.
 */
export async function parkRecords(
  store: Store,
  dbIds: readonly number[],
  refusal: DeliveryAttempt,
  destination = 1,
): Promise<void> {
  if (dbIds.length === 0) return;
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cdr_push_parked')
      .values(
        dbIds.map((dbId) => ({
          destination_id: destination,
          db_id: dbId,
          parked_at_ms: refusal.atMs,
          status: refusal.status,
          error: refusal.error.slice(0, 1000),
        })),
      )
      .onConflict((oc) => oc.columns(['destination_id', 'db_id']).doNothing())
      .execute();
    await appendDeliveryLogs(trx, [{ ...refusal, kind: 'park', latencyMs: 0 }], destination);
  });
}

/** The parked records, oldest db_id first. */
export async function listParked(store: Store, limit = 1000, destination = 1): Promise<ParkedRecord[]> {
  const rows = await store.db
    .selectFrom('cdr_push_parked')
    .selectAll()
    .where('destination_id', '=', destination)
    .orderBy('db_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    dbId: Number(r.db_id),
    parkedAtMs: Number(r.parked_at_ms),
    status: r.status === null ? null : Number(r.status),
    error: r.error,
  }));
}

/** How many records are parked. */
export async function countParked(store: Store, destination = 1): Promise<number> {
  const { n } = await store.db
    .selectFrom('cdr_push_parked')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('destination_id', '=', destination)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** What a resend did. */
export interface ResendResult {
  resent: number;
  /** Records still parked afterwards. */
  remaining: number;
  /** Why the resend stopped early ('' when every record asked for was acknowledged). */
  error: string;
}

/**
 * Sends parked records again with the current settings, one request each, oldest first: only
 * `dbId` when given, else all. Stops at the first refusal (the record stays parked).
 */
export async function resendParked(
  store: Store,
  sender: HttpSender,
  time: TimeFormatter,
  clock: Clock,
  dbId?: number,
  destination = 1,
): Promise<ResendResult> {
  const settings = await loadCdrPushSettings(store, destination);
  if (settings.url === '') throw new CdrPushError('not_configured', 'url: set the receiver URL first');
  let parked = await listParked(store, 100_000, destination);
  if (dbId !== undefined) {
    parked = parked.filter((p) => p.dbId === dbId);
    if (parked.length === 0) throw new CdrPushError('not_found', `db_id: record ${dbId} is not parked`);
  }
  let resent = 0;
  let error = '';
  for (const p of parked) {
    const row = (await store.db
      .selectFrom('cdr')
      .selectAll()
      .where('db_id', '=', p.dbId)
      .executeTakeFirst()) as CdrRow | undefined;
    const atMs = clock.now();
    const answer = row
      ? await sender.send(buildPushRequest(settings, [toWireRecord(row, time)], undefined, atMs))
      : { ok: false, status: null, latencyMs: 0, error: 'the record is no longer stored' };
    const attempt: DeliveryAttempt = {
      atMs,
      kind: 'resend',
      firstDbId: p.dbId,
      lastDbId: p.dbId,
      records: 1,
      status: answer.status,
      latencyMs: answer.latencyMs,
      error: answer.error,
    };
    if (!answer.ok) {
      await appendDeliveryLogs(store.db, [attempt], destination);
      error = `db_id ${p.dbId}: ${answer.error}`;
      break;
    }
    await store.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('cdr_push_parked')
        .where('destination_id', '=', destination)
        .where('db_id', '=', p.dbId)
        .execute();
      await appendDeliveryLogs(trx, [attempt], destination);
    });
    resent++;
  }
  return { resent, remaining: await countParked(store, destination), error };
}
