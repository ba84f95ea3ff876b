// The acceptance path of the SMS API as an integrator meets it: `branchgate serve --modem sim-pty`
// (the simulated modem on a real pty, opened like hardware), requests over HTTPS with the
// self-signed certificate, and a restart in the middle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { eventually, smsPost } from './support/sms-client.js';

const auth = 'acceptance-pass-77';
const EMOJI = ['👋', '🚀', '🎉'];
const EMOJI_TEXT = Array.from({ length: 100 }, (_, i) => `${EMOJI[i % 3] ?? ''}ab${i % 10}`).join('');
const LONG_INCOMING = Array.from({ length: 50 }, (_, i) => `Line ${String(i).padStart(4, '0')}.`).join('');

describe.each(storeKinds())('the SMS API over HTTPS with --modem sim-pty on %s', (kind) => {
  let tdb: TestDatabase;
  let dataDir: string;
  let srv: ServeProcess;
  const serve = () =>
    spawnServe(
      [
        '--data-dir',
        dataDir,
        '--db',
        tdb.url,
        '--modem',
        'sim-pty',
        '--listen',
        '127.0.0.1:0',
        '--log-level',
        'debug',
      ],
      {
        env: { BRANCHGATE_ADMIN_PASSWORD: auth, BRANCHGATE_SMS_SEND_WAIT_MS: '15000' },
      },
    );
  const post = (path: string, body: object) => smsPost(srv.url, path, { auth, ...body });

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'bg-sms-accept-'));
    srv = await serve();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('send, receive, get, delete, restart: everything as the contract says', async () => {
    expect([...EMOJI_TEXT].length).toBe(400);
    expect(LONG_INCOMING.length).toBe(500);

    const short = await post('/api/sms/send-one', {
      to: '+1 555 123 4567',
      message: 'Server room at 21C, all fine',
    });
    expect(short.status).toBe(200);
    expect(short.json()).toMatchObject({
      status: 'success',
      data: {
        type: 'sent',
        number: '+15551234567',
        message: 'Server room at 21C, all fine',
        status: 'sent',
        parts: 1,
        encoding: 'gsm7',
      },
    });
    const emoji = await post('/api/sms/send-one', { to: '+15551234567', message: EMOJI_TEXT });
    const emojiMsg = emoji.json().data;
    expect(emojiMsg).toMatchObject({ message: EMOJI_TEXT, status: 'sent', encoding: 'ucs2' });
    // 500 UTF-16 units at 67 per UCS-2 part, one fewer where a cut would split a surrogate pair.
    expect(EMOJI_TEXT.length).toBe(500);
    expect(emojiMsg.parts).toBeGreaterThanOrEqual(8);
    expect(emojiMsg.parts).toBeLessThanOrEqual(9);

    const sent = (await post('/api/sms/get-all', { type: 'sent' })).json();
    expect(sent.status).toBe('success');
    expect(sent.data.map((m: { message: string }) => m.message)).toEqual([
      'Server room at 21C, all fine',
      EMOJI_TEXT,
    ]);
    for (const m of sent.data) expect(['sent', 'delivered']).toContain(m.status);
    expect(sent.data[0].date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Number(sent.data[0].timestamp)).toBeGreaterThan(1_700_000_000);
    // The simulated network reports delivery of every part: the messages become delivered.
    await eventually('delivery reports', async () => {
      const all = (await post('/api/sms/get-all', { type: 'sent' })).json().data;
      return all.every((m: { status: string }) => m.status === 'delivered') ? all : undefined;
    });

    const incoming = await post('/api/modem-sim/incoming', { from: '+15559876543', message: LONG_INCOMING });
    expect(incoming.json()).toEqual({
      status: 'success',
      data: { from: '+15559876543', parts: 4, stored: 4 },
    });
    const received = await eventually('the 500-character message', async () => {
      const all = (await post('/api/sms/get-all', { type: 'received' })).json().data;
      return all.length > 0 ? all : undefined;
    });
    // Give the collector time to (wrongly) store a part or a copy; there must be exactly one message.
    await new Promise((r) => setTimeout(r, 500));
    const again = (await post('/api/sms/get-all', { type: 'received' })).json().data;
    expect(again).toEqual(received);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      type: 'received',
      number: '+15559876543',
      message: LONG_INCOMING,
      status: 'received',
      parts: 4,
      encoding: 'gsm7',
    });
    expect(received[0].incomplete).toBeUndefined();

    const one = await post('/api/sms/get-one', { type: 'received', id: received[0].id });
    expect(one.json()).toEqual({ status: 'success', data: received[0] });
    const byInt = await post('/api/sms/get-one', { type: 'sent', id: Number(emojiMsg.id) });
    expect(byInt.json().data.message).toBe(EMOJI_TEXT);
    expect((await post('/api/sms/get-one', { type: 'received', id: `0${received[0].id}` })).status).toBe(404);
    // Ids of one collection are not found in the other.
    expect((await post('/api/sms/get-one', { type: 'sent', id: received[0].id })).status).toBe(404);

    const deleted = await post('/api/sms/delete-one', { type: 'received', id: received[0].id });
    expect(deleted.json()).toEqual({ status: 'success', data: received[0] });
    expect((await post('/api/sms/get-one', { type: 'received', id: received[0].id })).status).toBe(404);
    expect((await post('/api/sms/delete-one', { type: 'received', id: received[0].id })).status).toBe(404);

    // A wrong password is refused and, like the right one, never reaches the log.
    const wrong = await smsPost(srv.url, '/api/sms/get-all', { auth: `${auth}-wrong`, type: 'sent' });
    expect(wrong.status).toBe(401);
    expect(await srv.stop('SIGTERM')).toBe(0);
    expect(srv.output()).not.toContain(auth);
    srv = await serve();

    expect((await post('/api/sms/get-one', { type: 'received', id: received[0].id })).status).toBe(404);
    expect((await post('/api/sms/get-all', { type: 'received' })).json().data).toEqual([]);
    const after = (await post('/api/sms/get-all', { type: 'sent' })).json().data;
    expect(after.map((m: { id: string }) => m.id)).toEqual(sent.data.map((m: { id: string }) => m.id));
    // The deleted message had the highest id; a new message never gets it again.
    const fresh = (await post('/api/sms/send-one', { to: '+15551234567', message: 'after restart' })).json()
      .data;
    expect(Number(fresh.id)).toBeGreaterThan(Number(received[0].id));
    expect(srv.output()).not.toContain(auth);
  }, 120_000);
});
