// The delivery log: one row per attempt (a delivery request or a "send test record"), with the
// db_ids it carried, the HTTP status, the latency and the error text, per destination. Kept to
// the newest DELIVERY_LOG_KEEP rows of each destination; pruned by the job after each run.
import type { Kysely } from 'kysely';
import type { Database, Store } from '../../store/index.js';

/** How many log rows are kept. */
export const DELIVERY_LOG_KEEP = 10_000;

/** One attempt as it is logged. */
export interface DeliveryAttempt {
  atMs: number;
  kind: 'delivery' | 'test' | 'park' | 'resend';
  /** First and last db_id carried (null for a test record). */
  firstDbId: number | null;
  lastDbId: number | null;
  records: number;
  /** HTTP status of the answer, null when there was none (timeout, refused, ...). */
  status: number | null;
  latencyMs: number;
  /** '' when acknowledged. */
  error: string;
}

/** Appends attempts in one statement (inside the caller's transaction when given one). */
export async function appendDeliveryLogs(
  db: Kysely<Database>,
  attempts: readonly DeliveryAttempt[],
  destination = 1,
): Promise<void> {
  if (attempts.length === 0) return;
  await db
    .insertInto('cdr_push_log')
    .values(
      attempts.map((a) => ({
        destination_id: destination,
        at_ms: a.atMs,
        kind: a.kind,
        first_db_id: a.firstDbId,
        last_db_id: a.lastDbId,
        records: a.records,
        status: a.status,
        latency_ms: Math.round(a.latencyMs),
        error: a.error.slice(0, 1000),
      })),
    )
    .execute();
}

/** The newest attempts first. */
export async function listDeliveryLog(
  store: Store,
  limit: number,
  destination = 1,
): Promise<DeliveryAttempt[]> {
  const rows = await store.db
    .selectFrom('cdr_push_log')
    .selectAll()
    .where('destination_id', '=', destination)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    atMs: Number(r.at_ms),
    kind: r.kind as DeliveryAttempt['kind'],
    firstDbId: r.first_db_id === null ? null : Number(r.first_db_id),
    lastDbId: r.last_db_id === null ? null : Number(r.last_db_id),
    records: r.records,
    status: r.status,
    latencyMs: r.latency_ms,
    error: r.error,
  }));
}

/** Deletes all but the newest `keep` rows of a destination (each destination keeps its own). */
export async function pruneDeliveryLog(
  store: Store,
  keep = DELIVERY_LOG_KEEP,
  destination = 1,
): Promise<void> {
  const edge = await store.db
    .selectFrom('cdr_push_log')
    .select('id')
    .where('destination_id', '=', destination)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (edge === undefined) return;
  await store.db
    .deleteFrom('cdr_push_log')
    .where('destination_id', '=', destination)
    .where('id', '<=', Number(edge.id))
    .execute();
}
