// The event log webhooks are delivered from. An event is appended in the same transaction as the
// change it reports, so a crash can never keep one without the other; its payload is the data as
// it was then (a message row, a modem state change), shaped for the wire when delivered.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/index.js';

/** Every event type a webhook can subscribe to. */
export const EVENT_TYPES = [
  'sms:received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'modem:state',
  'cdr-push:failing',
] as const;

/** One event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether a string names an event type. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Appends an event (inside the caller's transaction when given one). */
export async function appendEvent(
  db: Kysely<Database> | Transaction<Database>,
  type: EventType,
  payload: object,
  nowMs: number,
): Promise<void> {
  await db
    .insertInto('events')
    .values({ type, payload: JSON.stringify(payload), created_ms: nowMs })
    .execute();
}

/** The newest event id (0 when none). */
export async function lastEventId(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const { max } = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirstOrThrow();
  return Number(max ?? 0);
}
