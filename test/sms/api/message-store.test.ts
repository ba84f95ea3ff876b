// The message store on SQLite and PostgreSQL: ids never reused (even the highest, even after a
// reopen), received parts reassembled whatever their order, a PDU taken twice stored once, two
// messages that reuse a reference kept apart, the reassembly timeout, and delivery reports.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { applyStatusReport } from '../../../src/sms/delivery-reports.js';
import { flushExpiredParts, storeTakenPdu, type TakenPdu } from '../../../src/sms/inbox-store.js';
import { deleteMessage, getMessage, insertOutgoing, listMessages } from '../../../src/sms/message-store.js';
import { claimForSending, markSent, recordPartSent } from '../../../src/sms/outbox-store.js';
import { decodePdu, encodeDeliver, encodeStatusReport, PduError } from '../../../src/sms/pdu/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const HOUR = 3_600_000;

function taken(pdu: string): TakenPdu {
  try {
    return { pdu, decoded: decodePdu(pdu), decodeError: undefined };
  } catch (err) {
    if (!(err instanceof PduError)) throw err;
    return { pdu, decoded: undefined, decodeError: err };
  }
}

function deliverParts(from: string, text: string, reference: number, at = new Date(T0)): TakenPdu[] {
  return encodeDeliver({ from, text, reference, serviceCentreTime: at }).map((p) => taken(p.pdu));
}

describe.each(storeKinds())('the SMS message store on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
  });
  afterEach(async () => {
    await store.close();
    await tdb.drop();
  });

  test('never reuses an id, not even the highest deleted one after a reopen', async () => {
    const out = { to: '+15551234567', text: 'x', encoding: 'gsm7' as const, parts: 1 };
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await insertOutgoing(store, out, T0)).id);
    expect(ids).toEqual([ids[0], (ids[0] ?? 0) + 1, (ids[0] ?? 0) + 2]);
    expect(await deleteMessage(store, 'sent', ids[2] ?? 0)).toMatchObject({ id: ids[2] });
    expect(await deleteMessage(store, 'sent', ids[2] ?? 0)).toBeUndefined();
    await store.close();
    store = await openStore({ db: tdb.url });
    const next = await insertOutgoing(store, out, T0);
    expect(next.id).toBe((ids[2] ?? 0) + 1);
    expect((await listMessages(store, 'sent')).map((m) => m.id)).toEqual([ids[0], ids[1], next.id]);
    // A sent id is not found as received.
    expect(await getMessage(store, 'received', next.id)).toBeUndefined();
  });

  test('stores a multipart message once whatever order its parts come in, and a re-read part not at all', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(9);
    const parts = deliverParts('+15550001111', text, 77);
    expect(parts.length).toBe(3);
    const order = [parts[2], parts[0], parts[2], parts[1], parts[0]] as TakenPdu[];
    const outcomes = [];
    for (const p of order) outcomes.push(await storeTakenPdu(store, p, T0, HOUR));
    expect(outcomes).toEqual(['part', 'part', 'duplicate', 'part', 'duplicate']);
    const received = await listMessages(store, 'received');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      number: '+15550001111',
      message: text,
      parts: 3,
      incomplete: 0,
      error: null,
      message_ms: T0,
    });
    expect(await store.db.selectFrom('sms_inbox_part').selectAll().execute()).toEqual([]);
  });

  test('keeps two messages that reuse a reference apart', async () => {
    const a = deliverParts('+15550002222', 'A'.repeat(200), 5, new Date(T0));
    const b = deliverParts('+15550002222', 'B'.repeat(200), 5, new Date(T0 + 60_000));
    expect([a.length, b.length]).toEqual([2, 2]);
    // B's second part comes before A's: it joins B (sent a minute after A), not the older A.
    for (const p of [a[0], b[0], b[1], a[1]] as TakenPdu[]) await storeTakenPdu(store, p, T0, HOUR);
    const texts = (await listMessages(store, 'received')).map((m) => m.message).sort();
    expect(texts).toEqual(['A'.repeat(200), 'B'.repeat(200)]);
  });

  test('stores the parts it has as one incomplete message once the timeout passes', async () => {
    const parts = deliverParts('+15550003333', 'C'.repeat(400), 9);
    expect(parts.length).toBe(3);
    await storeTakenPdu(store, parts[0] as TakenPdu, T0, HOUR);
    await storeTakenPdu(store, parts[2] as TakenPdu, T0 + 10_000, HOUR);
    expect(await flushExpiredParts(store, T0 + HOUR - 1, HOUR)).toBe(0);
    expect(await listMessages(store, 'received')).toEqual([]);
    expect(await flushExpiredParts(store, T0 + HOUR, HOUR)).toBe(1);
    const [m] = await listMessages(store, 'received');
    expect(m).toMatchObject({ parts: 2, incomplete: 1, error: 'incomplete: part 2 of 3 did not arrive' });
    expect(m?.message).toBe('C'.repeat(153) + 'C'.repeat(400 - 306));
    // The late part starts a new group of its own rather than joining a stored message.
    await storeTakenPdu(store, parts[1] as TakenPdu, T0 + 2 * HOUR, HOUR);
    expect(await store.db.selectFrom('sms_inbox_part').select('sequence').execute()).toEqual([
      { sequence: 2 },
    ]);
  });

  test('keeps an undecodable PDU as a message with its error instead of dropping it', async () => {
    expect(await storeTakenPdu(store, taken('0791FFFF'), T0, HOUR)).toBe('message');
    const [m] = await listMessages(store, 'received');
    expect(m?.error).toMatch(/^undecodable PDU \(.+\): 0791FFFF$/);
  });

  test('delivery reports make a two-part message delivered, or failed naming the part', async () => {
    const out = { to: '+15557654321', text: 'y'.repeat(200), encoding: 'gsm7' as const, parts: 2 };
    const ok = await insertOutgoing(store, out, T0);
    const bad = await insertOutgoing(store, out, T0);
    for (const [row, mrs] of [
      [ok, [10, 11]],
      [bad, [12, 13]],
    ] as const) {
      expect(await claimForSending(store, row.id)).toBe(true);
      for (const [i, mr] of mrs.entries())
        expect(await recordPartSent(store, row.id, i + 1, mr, T0)).toBe(true);
      await markSent(store, row.id);
    }
    const report = (mr: number, status: number) =>
      decodePdu(
        encodeStatusReport({
          messageReference: mr,
          recipient: '+15557654321',
          serviceCentreTime: new Date(T0),
          dischargeTime: new Date(T0 + 1000),
          status,
        }).pdu,
      );
    const apply = async (mr: number, status: number) => {
      const d = report(mr, status);
      if (d.kind !== 'status-report') throw new Error('not a status report');
      return applyStatusReport(store.db, d);
    };
    expect(await apply(10, 0)).toBe(true);
    expect((await getMessage(store, 'sent', ok.id))?.status).toBe('sent');
    expect(await apply(11, 0)).toBe(true);
    expect((await getMessage(store, 'sent', ok.id))?.status).toBe('delivered');
    expect(await apply(13, 0x41)).toBe(true);
    expect(await getMessage(store, 'sent', bad.id)).toMatchObject({
      status: 'failed',
      error: 'delivery report: part 2 failed (TP-ST 0x41)',
    });
    // A report nobody waits for changes nothing.
    expect(await apply(99, 0)).toBe(false);
  });
});
