// The message store's queries for the API: list, get and delete one collection's messages, and
// insert a message to send. Ids are the rows' never-reused integer ids, shown as strings.

import type { Kysely, Transaction } from 'kysely';
import type { Database, Store } from '../store/index.js';
import { appendEvent } from '../webhooks/events.js';
import type { MessageType, SmsMessageRow } from './message.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Every message of a collection, oldest first. */
export function listMessages(store: Store, type: MessageType): Promise<SmsMessageRow[]> {
  return store.db.selectFrom('sms_message').selectAll().where('type', '=', type).orderBy('id').execute();
}

/** One message of a collection, or undefined. */
export function getMessage(store: Store, type: MessageType, id: number): Promise<SmsMessageRow | undefined> {
  return store.db
    .selectFrom('sms_message')
    .selectAll()
    .where('type', '=', type)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes one message (and, for a sent one, its part references); returns it, or undefined. */
export function deleteMessage(
  store: Store,
  type: MessageType,
  id: number,
): Promise<SmsMessageRow | undefined> {
  return store.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sms_message')
      .selectAll()
      .where('type', '=', type)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom('sms_sent_part').where('message_id', '=', id).execute();
    await trx.deleteFrom('sms_message').where('id', '=', id).execute();
    return row;
  });
}

/** What an outgoing message is made of once validated. */
export interface OutgoingMessage {
  to: string;
  /** `to` as the user typed it, when it differs from what is sent. */
  typed?: string | undefined;
  text: string;
  encoding: 'gsm7' | 'ucs2';
  parts: number;
}

/** Stores a message to send, status queued and due now. */
export function insertOutgoing(
  store: Store,
  message: OutgoingMessage,
  nowMs: number,
): Promise<SmsMessageRow> {
  return store.db
    .insertInto('sms_message')
    .values({
      type: 'sent',
      number: message.to,
      message: message.text,
      encoding: message.encoding,
      parts: message.parts,
      status: 'queued',
      error: null,
      incomplete: 0,
      message_ms: nowMs,
      created_ms: nowMs,
      parts_sent: 0,
      attempts: 0,
      next_attempt_ms: nowMs,
      reference: null,
      number_typed: message.typed ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What a received message is made of. */
export interface IncomingMessage {
  number: string;
  text: string;
  encoding: string;
  parts: number;
  /** The service centre's time of the (first) part. */
  messageMs: number;
  incomplete: boolean;
  error: string | null;
}

/** Stores a received message (inside the collector's transaction). */
export async function insertIncoming(db: Db, message: IncomingMessage, nowMs: number): Promise<void> {
  const row = await db
    .insertInto('sms_message')
    .values({
      type: 'received',
      number: message.number,
      message: message.text,
      encoding: message.encoding,
      parts: message.parts,
      status: 'received',
      error: message.error,
      incomplete: message.incomplete ? 1 : 0,
      message_ms: message.messageMs,
      created_ms: nowMs,
      parts_sent: 0,
      attempts: 0,
      next_attempt_ms: null,
      reference: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await appendEvent(db, 'sms:received', row, nowMs);
}
