// SMS operations through the engine against the simulator, over memory and over a pty: +CMTI for
// new (multipart) messages, list/read/delete, send with +CMGS and a +CDS status report, and the
// send-side faults (+CMS ERROR on send, storage full).
import { afterEach, describe, expect, it } from 'vitest';
import { ModemError } from '../../../src/sms/modem/index.js';
import { decodePdu, encodeSubmit } from '../../../src/sms/pdu/index.js';
import { type Harness, LINKS, openHarness, outcome } from './support/harness.js';

function textOf(pdu: string): string {
  const decoded = decodePdu(pdu);
  return decoded.text;
}

describe.each(LINKS)('SMS operations over %s', (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('announces each stored part with +CMTI and lists, reads and deletes them', async () => {
    h = await openHarness(kind, { slots: 10 });
    await h.modem.start();
    const stored: number[] = [];
    h.modem.on('sms-stored', (slot) => stored.push(slot.index));
    const long = 'Convoy 12 arrives at the east gate at 06:40, two trailers, papers checked. '.repeat(3);
    expect(h.sim.deliver('+15551230001', long, { reference: 77 })).toEqual([1, 2]);
    expect(h.sim.deliver('ACME', 'Код подтверждения 4471 😀')).toEqual([3]);
    await h.waitFor(() => stored.length === 3, 'three +CMTI');
    expect(stored).toEqual([1, 2, 3]);

    const list = await h.modem.listMessages();
    expect(list.map((m) => [m.index, m.status, m.decoded?.kind])).toEqual([
      [1, 'unread', 'deliver'],
      [2, 'unread', 'deliver'],
      [3, 'unread', 'deliver'],
    ]);
    const [p1, p2, p3] = list.map((m) => m.decoded);
    if (p1?.kind !== 'deliver' || p2?.kind !== 'deliver' || p3?.kind !== 'deliver')
      throw new Error('not delivers');
    expect(p1.sender.number).toBe('+15551230001');
    expect([p1.concat, p2.concat]).toEqual([
      { reference: 77, total: 2, sequence: 1, referenceBits: 8 },
      { reference: 77, total: 2, sequence: 2, referenceBits: 8 },
    ]);
    expect(p1.text + p2.text).toBe(long);
    expect(p3.sender).toEqual({ number: 'ACME', type: 'alphanumeric' });
    expect(p3.text).toBe('Код подтверждения 4471 😀');
    expect(p3.encoding).toBe('ucs2');

    const one = await h.modem.readMessage(3);
    expect(one?.status).toBe('read');
    expect(one?.pdu).toBe(list[2]?.pdu);
    await h.modem.deleteMessage(1);
    expect(await h.modem.readMessage(1)).toBeUndefined();
    expect(h.sim.stored().map((s) => s.index)).toEqual([2, 3]);
  });

  it('passes a message routed straight to the host (+CMT, +CNMI mt=2) as sms-direct', async () => {
    h = await openHarness(kind, {}, { cnmi: '2,2,0,1,0' });
    await h.modem.start();
    const direct: string[] = [];
    h.modem.on('sms-direct', (m) => direct.push(m.pdu));
    expect(h.sim.deliver('+15551230001', 'Straight through')).toEqual([]);
    await h.waitFor(() => direct.length === 1, 'the +CMT');
    expect(decodePdu(direct[0] ?? '')).toMatchObject({ kind: 'deliver', text: 'Straight through' });
    expect(h.sim.stored()).toEqual([]);
  });

  it('rejects a bad storage index before anything goes on the wire', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    const before = h.sim.commands.length;
    await expect(h.modem.readMessage(-1)).rejects.toMatchObject({ code: 'bad_argument', command: 'AT+CMGR' });
    await expect(h.modem.sendPdu('0G', 1)).rejects.toMatchObject({ code: 'bad_argument' });
    expect(h.sim.commands.length).toBe(before);
  });

  it('sends a PDU, returns the message reference and reports delivery with +CDS', async () => {
    h = await openHarness(kind, { statusReportDelayMs: 4000 });
    await h.modem.start();
    const reports: string[] = [];
    h.modem.on('status-report', (r) => reports.push(r.pdu));
    const [part] = encodeSubmit({ to: '+15557650002', text: 'Gate 3 is open', statusReportRequest: true });
    if (part === undefined) throw new Error('no part');
    const mr = await h.modem.sendPdu(part.pdu, part.tpduLength);
    expect(mr).toBe(1);
    expect(h.sim.sent).toMatchObject([{ messageReference: 1, to: '+15557650002', text: 'Gate 3 is open' }]);
    await h.advanceUntil(() => reports.length === 1);
    const report = decodePdu(reports[0] ?? '');
    expect(report).toMatchObject({
      kind: 'status-report',
      messageReference: 1,
      recipient: { number: '+15557650002' },
      statusCategory: 'delivered',
    });
  });

  it('sends every part of a multipart message in order with increasing references', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    const parts = encodeSubmit({ to: '+15557650002', text: 'ж'.repeat(100), reference: 9 });
    expect(parts).toHaveLength(2);
    const refs: number[] = [];
    for (const p of parts) refs.push(await h.modem.sendPdu(p.pdu, p.tpduLength));
    expect(refs).toEqual([1, 2]);
    expect(h.sim.sent.map((m) => m.concat)).toEqual([
      { reference: 9, total: 2, sequence: 1 },
      { reference: 9, total: 2, sequence: 2 },
    ]);
    expect(h.sim.sent.map((m) => textOf(m.pdu)).join('')).toBe('ж'.repeat(100));
  });

  it('fails a send with the +CMS ERROR number and stays ready', async () => {
    h = await openHarness(kind, { faults: { sendError: 331 } });
    await h.modem.start();
    const [part] = encodeSubmit({ to: '+15557650002', text: 'no network' });
    if (part === undefined) throw new Error('no part');
    async function sendAlert(harness: Harness) {
      return harness.modem.sendPdu(part?.pdu ?? '', part?.tpduLength ?? 0);
    }
    const err = await sendAlert(h).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModemError);
    expect(err).toMatchObject({ code: 'cms_error', modemCode: 331, command: `AT+CMGS=${part.tpduLength}` });
    expect((err as Error).message).toBe(
      `AT+CMGS=${part.tpduLength}: modem answered +CMS ERROR: 331 (no network service)`,
    );
    expect((err as Error).stack).toContain('sendAlert');
    expect(h.modem.state).toBe('ready');
    h.sim.setFaults({ sendError: undefined });
    expect(await h.modem.sendPdu(part.pdu, part.tpduLength)).toBe(1);
  });

  it('reports storage full as +CMS ERROR 322 and holds deliveries until a slot is free', async () => {
    h = await openHarness(kind, { slots: 2 });
    await h.modem.start();
    const stored: number[] = [];
    h.modem.on('sms-stored', (slot) => stored.push(slot.index));
    h.sim.deliver('+15551230001', 'one');
    h.sim.deliver('+15551230001', 'two');
    expect(h.sim.deliver('+15551230001', 'three')).toEqual([]);
    expect(h.sim.heldAtNetwork).toBe(1);
    await h.waitFor(() => stored.length === 2, 'two +CMTI');
    h.sim.setFaults({ storageFull: true });
    const [part] = encodeSubmit({ to: '+15557650002', text: 'full' });
    if (part === undefined) throw new Error('no part');
    await expect(h.modem.sendPdu(part.pdu, part.tpduLength)).rejects.toMatchObject({
      code: 'cms_error',
      modemCode: 322,
    });
    h.sim.setFaults({ storageFull: false });
    await h.modem.deleteMessage(1);
    await h.waitFor(() => stored.length === 3, 'the held message');
    expect(stored).toEqual([1, 2, 1]);
    const slot1 = await h.modem.readMessage(1);
    expect(slot1?.decoded?.text).toBe('three');
  });

  it('fails a send with a timeout when the prompt never comes, and recovers', async () => {
    h = await openHarness(kind, {}, { promptTimeoutMs: 3000, reopenDelayMs: 500 });
    await h.modem.start();
    const [part] = encodeSubmit({ to: '+15557650002', text: 'lost' });
    if (part === undefined) throw new Error('no part');
    h.sim.setFaults({ noAnswer: true });
    const sent = outcome(h.modem.sendPdu(part.pdu, part.tpduLength));
    await h.waitFor(() => h?.sim.commands.at(-1) === `AT+CMGS=${part.tpduLength}`, 'AT+CMGS on the wire');
    h.clock.advance(3000);
    await h.waitFor(sent.done, 'the prompt timeout');
    expect(sent.error()).toMatchObject({ code: 'timeout' });
    expect((sent.error() as Error).message).toContain('waited 3000 ms for the "> " prompt');
    h.sim.setFaults({ noAnswer: false });
    await h.advanceUntil(() => h?.modem.state === 'ready');
    expect(h.sim.sent).toEqual([]);
    expect(await h.modem.sendPdu(part.pdu, part.tpduLength)).toBe(1);
  });
});
