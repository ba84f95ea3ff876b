// Persists what the collector takes from the modem, each PDU in one transaction with its "seen"
// mark, so a PDU read again after a crash (stored, not yet deleted) is never stored twice:
//   single-part DELIVER ──▶ sms_message
//   part of a multipart ──▶ sms_inbox_part ──(all parts, or timeout)──▶ sms_message
//   STATUS-REPORT ──▶ the sent message's status;  undecodable ──▶ sms_message with `error`
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database, Store } from '../store/index.js';
import { applyStatusReport } from './delivery-reports.js';
import { insertIncoming } from './message-store.js';
import type { DecodedDeliver, DecodedPdu } from './pdu/index.js';

/** A PDU read from the modem's storage. */
export interface TakenPdu {
  /** Hex, SMSC prefix included. */
  pdu: string;
  decoded: DecodedPdu | undefined;
  decodeError: Error | undefined;
}

/** What became of a taken PDU. */
export type TakeOutcome = 'message' | 'part' | 'report' | 'duplicate';

/** Stores one taken PDU; `partTimeoutMs` bounds how long an open multipart group takes new parts. */
export async function storeTakenPdu(
  store: Store,
  taken: TakenPdu,
  nowMs: number,
  partTimeoutMs: number,
): Promise<TakeOutcome> {
  const sha = createHash('sha256').update(taken.pdu.toUpperCase()).digest('hex');
  return store.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('sms_inbox_seen')
      .values({ pdu_sha256: sha, seen_ms: nowMs })
      .onConflict((oc) => oc.column('pdu_sha256').doNothing())
      .returning('pdu_sha256')
      .executeTakeFirst();
    if (!fresh) return 'duplicate';
    const d = taken.decoded;
    if (d?.kind === 'status-report') {
      await applyStatusReport(trx, d);
      return 'report';
    }
    if (d?.kind !== 'deliver') {
      const why = taken.decodeError?.message ?? `unexpected ${d?.kind ?? 'unknown'} PDU`;
      await insertIncoming(
        trx,
        {
          number: '',
          text: '',
          encoding: 'unknown',
          parts: 1,
          messageMs: nowMs,
          incomplete: false,
          error: `undecodable PDU (${why}): ${taken.pdu.toUpperCase()}`,
        },
        nowMs,
      );
      return 'message';
    }
    if (d.concat === undefined) {
      await insertIncoming(
        trx,
        {
          number: d.sender.number,
          text: textOf(d),
          encoding: d.encoding,
          parts: 1,
          messageMs: d.serviceCentreTime.date.getTime(),
          incomplete: false,
          error: null,
        },
        nowMs,
      );
      return 'message';
    }
    await storePart(trx, d, sha, nowMs, partTimeoutMs);
    return 'part';
  });
}

function textOf(d: DecodedDeliver): string {
  return d.encoding === '8bit' ? Buffer.from(d.data ?? new Uint8Array()).toString('hex') : d.text;
}

/** Puts a part in the oldest open group of its key that lacks its sequence; assembles a full group. */
async function storePart(
  trx: Transaction<Database>,
  d: DecodedDeliver,
  sha: string,
  nowMs: number,
  partTimeoutMs: number,
): Promise<void> {
  const concat = d.concat as NonNullable<DecodedDeliver['concat']>;
  const groupKey = JSON.stringify([
    d.sender.number,
    concat.referenceBits,
    concat.reference,
    concat.total,
    d.encoding,
  ]);
  const existing = await trx
    .selectFrom('sms_inbox_part')
    .select(['group_id', 'sequence', 'stored_ms', 'message_ms'])
    .where('group_key', '=', groupKey)
    .orderBy('id')
    .execute();
  const groups = new Map<string, { sequences: Set<number>; firstMs: number; messageMs: number }>();
  for (const p of existing) {
    const g = groups.get(p.group_id) ?? {
      sequences: new Set<number>(),
      firstMs: p.stored_ms,
      messageMs: p.message_ms,
    };
    g.sequences.add(p.sequence);
    groups.set(p.group_id, g);
  }
  // Two messages that reuse a reference are not merged: a part joins an open group that lacks its
  // sequence, the one whose service-centre time is nearest (parts of one message are sent together),
  // the oldest on a tie; otherwise it starts a group of its own.
  const messageMs = d.serviceCentreTime.date.getTime();
  let groupId = sha;
  let have = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [id, g] of groups) {
    if (g.sequences.has(concat.sequence) || nowMs - g.firstMs >= partTimeoutMs) continue;
    const distance = Math.abs(g.messageMs - messageMs);
    if (distance < bestDistance) {
      bestDistance = distance;
      groupId = id;
      have = g.sequences.size;
    }
  }
  await trx
    .insertInto('sms_inbox_part')
    .values({
      group_key: groupKey,
      group_id: groupId,
      sender: d.sender.number,
      total: concat.total,
      sequence: concat.sequence,
      encoding: d.encoding,
      text: textOf(d),
      message_ms: messageMs,
      stored_ms: nowMs,
    })
    .execute();
  if (have + 1 >= concat.total) await assembleGroup(trx, groupId, nowMs);
}

/** Turns a group's parts into one received message (marked incomplete when parts are missing). */
async function assembleGroup(trx: Transaction<Database>, groupId: string, nowMs: number): Promise<void> {
  const parts = await trx
    .selectFrom('sms_inbox_part')
    .selectAll()
    .where('group_id', '=', groupId)
    .orderBy('sequence')
    .orderBy('id')
    .execute();
  const first = parts[0];
  if (!first) return;
  const bySequence = new Map<number, (typeof parts)[number]>();
  for (const p of parts) if (!bySequence.has(p.sequence)) bySequence.set(p.sequence, p);
  const missing: number[] = [];
  for (let s = 1; s <= first.total; s++) if (!bySequence.has(s)) missing.push(s);
  await insertIncoming(
    trx,
    {
      number: first.sender,
      text: [...bySequence.values()].map((p) => p.text).join(''),
      encoding: first.encoding,
      parts: bySequence.size,
      messageMs: Math.min(...parts.map((p) => p.message_ms)),
      incomplete: missing.length > 0,
      error:
        missing.length > 0
          ? `incomplete: part${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${first.total} did not arrive`
          : null,
    },
    nowMs,
  );
  await trx.deleteFrom('sms_inbox_part').where('group_id', '=', groupId).execute();
}

/** Stores every group whose first part is older than the timeout as one incomplete message. */
export async function flushExpiredParts(store: Store, nowMs: number, partTimeoutMs: number): Promise<number> {
  const groups = await store.db
    .selectFrom('sms_inbox_part')
    .select(['group_id', (eb) => eb.fn.min('stored_ms').as('first_ms')])
    .groupBy('group_id')
    .execute();
  let flushed = 0;
  for (const g of groups) {
    if (nowMs - Number(g.first_ms) < partTimeoutMs) continue;
    await store.db.transaction().execute((trx) => assembleGroup(trx, g.group_id, nowMs));
    flushed++;
  }
  return flushed;
}

/** Forgets "seen" marks older than keepMs (a PDU is read again only while still on the modem). */
export async function pruneSeen(store: Store, nowMs: number, keepMs: number): Promise<void> {
  await store.db
    .deleteFrom('sms_inbox_seen')
    .where('seen_ms', '<', nowMs - keepMs)
    .execute();
}
