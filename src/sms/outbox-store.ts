// The outbox's persisted state, on the sent message's row: status, parts the modem accepted so far,
// attempts and the time of the next one. A restart picks up every queued or half-sent message; a
// message is claimed (queued -> sending) atomically, so two instances never send the same one.

import type { Store } from '../store/index.js';
import { appendEvent } from '../webhooks/events.js';
import type { SmsMessageRow } from './message.js';

/** Sent messages due for an attempt, oldest first. */
export function dueOutgoing(store: Store, nowMs: number, limit: number): Promise<SmsMessageRow[]> {
  return store.db
    .selectFrom('sms_message')
    .selectAll()
    .where('type', '=', 'sent')
    .where('status', '=', 'queued')
    .where('next_attempt_ms', '<=', nowMs)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** When the next queued message falls due, or undefined when none waits. */
export async function nextDueMs(store: Store): Promise<number | undefined> {
  const row = await store.db
    .selectFrom('sms_message')
    .select((eb) => eb.fn.min('next_attempt_ms').as('next'))
    .where('type', '=', 'sent')
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
}

/** Marks a queued message as on the wire; false when it was deleted, settled or taken by another instance. */
export async function claimForSending(store: Store, id: number): Promise<boolean> {
  const r = await store.db
    .updateTable('sms_message')
    .set({ status: 'sending' })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Puts messages left `sending` by a crash back in the queue, due now (on start). */
export async function requeueInterrupted(store: Store, nowMs: number): Promise<void> {
  await store.db
    .updateTable('sms_message')
    .set({ status: 'queued', next_attempt_ms: nowMs })
    .where('type', '=', 'sent')
    .where('status', '=', 'sending')
    .execute();
}

/** Records that the modem accepted part `sequence` (1-based) with reference mr; false when the message is gone. */
export function recordPartSent(
  store: Store,
  id: number,
  sequence: number,
  mr: number,
  nowMs: number,
): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('sms_message')
      .set((eb) => ({
        parts_sent: sequence,
        reference: sequence === 1 ? mr : eb.ref('reference'),
      }))
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('sms_sent_part')
      .values({ message_id: id, sequence, mr, report: null, sent_ms: nowMs })
      .onConflict((oc) =>
        oc.columns(['message_id', 'sequence']).doUpdateSet({ mr, report: null, sent_ms: nowMs }),
      )
      .execute();
    return true;
  });
}

/** Every part was accepted. */
export async function markSent(store: Store, id: number, nowMs: number = Date.now()): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('sms_message')
      .set({ status: 'sent', error: null, next_attempt_ms: null })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .returningAll()
      .executeTakeFirst();
    if (row) await appendEvent(trx, 'sms:sent', row, nowMs);
  });
}

/** A failed attempt: back to queued until nextMs, or failed for good when nextMs is undefined. */
export async function markAttemptFailed(
  store: Store,
  id: number,
  attempts: number,
  error: string,
  nextMs: number | undefined,
  nowMs: number = Date.now(),
): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('sms_message')
      .set({
        status: nextMs === undefined ? 'failed' : 'queued',
        attempts,
        error,
        next_attempt_ms: nextMs ?? null,
      })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'sending'])
      .returningAll()
      .executeTakeFirst();
    if (row && nextMs === undefined) await appendEvent(trx, 'sms:failed', row, nowMs);
  });
}

/** Makes every queued message due now (the modem just came back). */
export async function makeQueuedDue(store: Store, nowMs: number): Promise<void> {
  await store.db
    .updateTable('sms_message')
    .set({ next_attempt_ms: nowMs })
    .where('type', '=', 'sent')
    .where('status', '=', 'queued')
    .where('next_attempt_ms', '>', nowMs)
    .execute();
}
