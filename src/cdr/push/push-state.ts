// The delivery cursor: the last acknowledged db_id, kept in cdr_push_state with a generation that
// replay bumps. The job advances it with a compare-and-set (generation and old value) in one
// statement after each acknowledged request, so a replay or a second deliverer makes the advance
// fail instead of being overwritten. db_id is dense and commit-ordered (cdr/record-store.ts), so a plain cursor
// never passes a row that is not yet visible.
import type { Kysely } from 'kysely';
import type { Database, Store } from '../../store/index.js';
import { withWriteLock } from '../../store/index.js';
import { countCdrRecords } from '../record-store.js';
import { appendDeliveryLogs, type DeliveryAttempt } from './delivery-log.js';
import { CdrPushError } from './push-error.js';

/** The delivery state as read. */
export interface PushState {
  /** Last acknowledged db_id; null while delivery was never enabled. */
  ackedDbId: number | null;
  generation: number;
  /** When the current run of failures began; null while delivering fine. */
  failingSinceMs: number | null;
  lastSuccessMs: number | null;
}

const num = (v: number | null) => (v === null ? null : Number(v));

/** Reads the state row. */
export async function readPushState(db: Kysely<Database>, destination = 1): Promise<PushState> {
  const r = await db
    .selectFrom('cdr_push_state')
    .selectAll()
    .where('id', '=', destination)
    .executeTakeFirst();
  if (r === undefined)
    throw new CdrPushError('not_found', `destination: there is no destination ${destination}`);
  return {
    ackedDbId: num(r.acked_db_id),
    generation: Number(r.generation),
    failingSinceMs: num(r.failing_since_ms),
    lastSuccessMs: num(r.last_success_ms),
  };
}

/**
 * First enable: sets the cursor after the newest stored record (or to 0 with sendHistory) when it
 * was never set. Call it inside the transaction that saves enabled=true.
 */
export async function initializeCursor(
  db: Kysely<Database>,
  sendHistory: boolean,
  destination = 1,
): Promise<void> {
  const { max } = await db
    .selectFrom('cdr')
    .select((eb) => eb.fn.max('db_id').as('max'))
    .executeTakeFirstOrThrow();
  await db
    .updateTable('cdr_push_state')
    .set({ acked_db_id: sendHistory ? 0 : Number(max ?? 0) })
    .where('id', '=', destination)
    .where('acked_db_id', 'is', null)
    .execute();
}

/** The cursor value a run expects to find, and the generation it read it in. */
export interface CursorExpectation {
  generation: number;
  from: number;
}

/**
 * Moves the cursor from `expected.from` to `to` if nothing else moved it (same generation, same
 * value), clears failing-since and sets last-success: one statement, so it commits on its own.
 * `owner`, when given, must also hold the SQLite lease. Returns false when the cursor had moved.
 */
export async function advanceCursor(
  db: Kysely<Database>,
  expected: CursorExpectation,
  to: number,
  atMs: number,
  owner?: string,
  destination = 1,
): Promise<boolean> {
  let q = db
    .updateTable('cdr_push_state')
    .set({ acked_db_id: to, failing_since_ms: null, last_success_ms: atMs })
    .where('id', '=', destination)
    .where('generation', '=', expected.generation)
    .where('acked_db_id', '=', expected.from);
  // The lease is on row 1 and covers every destination.
  if (owner !== undefined)
    q = q.where((eb) =>
      eb(
        eb.selectFrom('cdr_push_state as lease').select('lease.lease_owner').where('lease.id', '=', 1),
        '=',
        owner,
      ),
    );
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Whether an answer's status counts toward the poison policy: a 4xx that is not about timing. */
export function isPoisonStatus(status: number | null): status is number {
  return (
    status !== null && status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429
  );
}

/**
 * Records a failed attempt: logs it, sets failing-since if not already failing, and counts how
 * often in a row the request starting at attempt.firstDbId was refused with this same 4xx (any
 * other failure, or another record, starts the count again). Returns that count (0 when the
 * failure does not count toward the poison policy).
 */
export async function recordFailure(
  store: Store,
  attempt: DeliveryAttempt,
  destination = 1,
): Promise<number> {
  return store.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('cdr_push_state')
      .set({ failing_since_ms: attempt.atMs })
      .where('id', '=', destination)
      .where('failing_since_ms', 'is', null)
      .execute();
    await appendDeliveryLogs(trx, [attempt], destination);
    const poison = isPoisonStatus(attempt.status) && attempt.firstDbId !== null;
    const row = await trx
      .selectFrom('cdr_push_state')
      .select(['poison_db_id', 'poison_status', 'poison_count'])
      .where('id', '=', destination)
      .executeTakeFirstOrThrow();
    const same =
      poison && num(row.poison_db_id) === attempt.firstDbId && num(row.poison_status) === attempt.status;
    const count = poison ? (same ? Number(row.poison_count) + 1 : 1) : 0;
    await trx
      .updateTable('cdr_push_state')
      .set({
        poison_db_id: poison ? attempt.firstDbId : null,
        poison_status: poison ? attempt.status : null,
        poison_count: count,
      })
      .where('id', '=', destination)
      .execute();
    return count;
  });
}

/**
 * Replay: the next run starts at fromDbId (so records from there on are sent again). fromDbId may
 * be at most the newest db_id + 1 (which skips the backlog). Bumps the generation so a run in
 * flight cannot move the cursor back over the replay.
 */
export async function replayFrom(store: Store, fromDbId: number, destination = 1): Promise<PushState> {
  if (!Number.isSafeInteger(fromDbId) || fromDbId < 1) {
    throw new CdrPushError('bad_parameter', `from_db_id: must be a positive integer, not ${fromDbId}`);
  }
  return withWriteLock(store, 'cdr_push_settings', async (trx) => {
    const { max } = await trx
      .selectFrom('cdr')
      .select((eb) => eb.fn.max('db_id').as('max'))
      .executeTakeFirstOrThrow();
    const newest = Number(max ?? 0);
    if (fromDbId > newest + 1) {
      throw new CdrPushError(
        'bad_parameter',
        `from_db_id: ${fromDbId} is beyond the newest record (db_id ${newest}); give at most ${newest + 1}`,
      );
    }
    await trx
      .updateTable('cdr_push_state')
      .set((eb) => ({ acked_db_id: fromDbId - 1, generation: eb('generation', '+', 1) }))
      .where('id', '=', destination)
      .execute();
    return readPushState(trx, destination);
  });
}

/** Records stored after the cursor (0 while delivery was never enabled). */
export async function backlogOf(store: Store, state: PushState): Promise<number> {
  if (state.ackedDbId === null) return 0;
  return Math.max(0, (await countCdrRecords(store)) - state.ackedDbId);
}
