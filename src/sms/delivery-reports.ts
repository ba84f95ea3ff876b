// Delivery reports (SMS-STATUS-REPORT) update the sent message they are about: the part is found
// by its TP-MR and recipient (the newest part still waiting), and the message becomes `delivered`
// once every part is, or `failed` when any part's report is a permanent failure.

import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/index.js';
import { appendEvent } from '../webhooks/events.js';
import type { DecodedStatusReport } from './pdu/index.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The last nine digits of a number: enough to match "+4915..." with "015..." forms. */
function numberTail(number: string): string {
  return number.replace(/\D/g, '').slice(-9);
}

/** Applies one report; true when it matched a sent part. */
export async function applyStatusReport(db: Db, report: DecodedStatusReport): Promise<boolean> {
  if (report.statusCategory === 'pending') return false;
  const candidates = await db
    .selectFrom('sms_sent_part')
    .innerJoin('sms_message', 'sms_message.id', 'sms_sent_part.message_id')
    .select(['sms_sent_part.message_id', 'sms_sent_part.sequence', 'sms_message.number'])
    .where('sms_sent_part.mr', '=', report.messageReference)
    .where('sms_sent_part.report', 'is', null)
    .orderBy('sms_sent_part.sent_ms', 'desc')
    .orderBy('sms_sent_part.message_id', 'desc')
    .limit(20)
    .execute();
  const tail = numberTail(report.recipient.number);
  const part = candidates.find((c) => numberTail(c.number) === tail);
  if (!part) return false;
  await db
    .updateTable('sms_sent_part')
    .set({ report: report.statusCategory })
    .where('message_id', '=', part.message_id)
    .where('sequence', '=', part.sequence)
    .execute();
  const message = await db
    .selectFrom('sms_message')
    .select(['parts', 'status'])
    .where('id', '=', part.message_id)
    .executeTakeFirst();
  if (!message || (message.status !== 'sent' && message.status !== 'delivered')) return true;
  const reports = await db
    .selectFrom('sms_sent_part')
    .select('report')
    .where('message_id', '=', part.message_id)
    .execute();
  if (report.statusCategory === 'failed') {
    const st = `0x${report.status.toString(16).padStart(2, '0')}`;
    const row = await db
      .updateTable('sms_message')
      .set({ status: 'failed', error: `delivery report: part ${part.sequence} failed (TP-ST ${st})` })
      .where('id', '=', part.message_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await appendEvent(db, 'sms:failed', row, Date.now());
  } else if (reports.filter((r) => r.report === 'delivered').length >= message.parts) {
    const row = await db
      .updateTable('sms_message')
      .set({ status: 'delivered' })
      .where('id', '=', part.message_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (message.status !== 'delivered') await appendEvent(db, 'sms:delivered', row, Date.now());
  }
  return true;
}
