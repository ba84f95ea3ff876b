// The SDK's SMS client against the real server (real SMS service on the simulated modem) over
// real TLS on loopback: send, list, get, delete, a 404, a wrong password and a bad field, each as
// the contract's envelope turned into typed messages or ClientError.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SmsClient } from '../../src/client/index.js';
import { eventually, smsPost } from '../sms/api/support/sms-client.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from '../sms/api/support/sms-server.js';
import { caught } from './support.js';

describe('SmsClient against branchgate over TLS', () => {
  let srv: SmsTestServer;
  let sms: SmsClient;
  beforeAll(async () => {
    srv = await startSmsServer('sqlite', {
      sms: { sendWaitMs: 5000 },
      failureLimits: { maxFailures: 1_000_000, windowSeconds: 60, blockSeconds: 60 },
    });
    sms = new SmsClient({ url: srv.url, password: ADMIN_PASSWORD, insecure: true });
  });
  afterAll(async () => {
    sms?.close();
    await srv?.close();
  });

  test('send, list, get and delete a sent message round trip', async () => {
    const sent = await sms.sendOne('+1 555 010 2030', 'Disk full on pbx-1');
    expect(sent).toMatchObject({
      type: 'sent',
      number: '+15550102030',
      message: 'Disk full on pbx-1',
      status: 'sent',
      parts: 1,
      encoding: 'gsm7',
    });
    expect(sent.id).toMatch(/^\d+$/);
    expect(sent.timestamp).toMatch(/^\d+$/);
    expect(sent.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    expect((await sms.getAll('sent')).map((m) => m.id)).toContain(sent.id);
    expect(await sms.getOne('sent', sent.id)).toMatchObject({ id: sent.id, message: 'Disk full on pbx-1' });
    expect(await sms.getOne('sent', Number(sent.id))).toMatchObject({ id: sent.id });
    expect(await sms.deleteOne('sent', sent.id)).toMatchObject({ id: sent.id, type: 'sent' });
    expect((await sms.getAll('sent')).map((m) => m.id)).not.toContain(sent.id);

    const gone = await caught(sms.getOne('sent', sent.id));
    expect([gone.code, gone.status, gone.serverCode]).toEqual(['http_status', 404, 'not_found']);
    expect(gone.request).toBe(`POST ${srv.url}/api/sms/get-one`);
  });

  test('a received message is listed, read and deleted through the client', async () => {
    const text = 'Reply from site 7: generator back on';
    const incoming = await smsPost(srv.url, '/api/modem-sim/incoming', {
      auth: ADMIN_PASSWORD,
      from: '+15557654321',
      message: text,
    });
    expect(incoming.status).toBe(200);
    const got = await eventually('the received message', async () =>
      (await sms.getAll('received')).find((m) => m.message === text),
    );
    expect(got).toMatchObject({ type: 'received', number: '+15557654321', status: 'received' });
    expect(await sms.getOne('received', got.id)).toEqual(got);
    // Sent and received share one id space: a received id is 404 among the sent.
    expect((await caught(sms.getOne('sent', got.id))).status).toBe(404);
    expect(await sms.deleteOne('received', got.id)).toEqual(got);
    expect((await caught(sms.deleteOne('received', got.id))).serverCode).toBe('not_found');
  });

  test('a wrong password is ClientError 401 whose message never holds the password', async () => {
    const wrong = new SmsClient({ url: srv.url, password: 'Wrong-Pass-9', insecure: true });
    try {
      const err = await caught(wrong.getAll('received'));
      expect([err.status, err.serverCode]).toEqual([401, 'unauthorized']);
      expect(err.serverMessage).toEqual(expect.any(String));
      expect(err.message).not.toContain('Wrong-Pass-9');
      expect(JSON.stringify(err)).not.toContain('Wrong-Pass-9');
    } finally {
      wrong.close();
    }
  });

  test('a field the server refuses is ClientError 400 bad_request naming it', async () => {
    const to = await caught(sms.sendOne('not a number', 'hello'));
    expect([to.status, to.serverCode]).toEqual([400, 'bad_request']);
    expect(to.serverMessage).toMatch(/^to:/);
    const empty = await caught(sms.sendOne('+15550102030', ''));
    expect(empty.serverMessage).toMatch(/^message:/);
    const type = await caught(sms.getAll('outbox' as 'sent'));
    expect(type.serverMessage).toMatch(/^type:/);
  });

  test('an untrusted certificate fails with a tls ClientError before the password is sent', async () => {
    const strict = new SmsClient({ url: srv.url, password: ADMIN_PASSWORD });
    try {
      const err = await caught(strict.getAll('sent'));
      expect(err.code).toBe('tls');
      expect(err.message).not.toContain(ADMIN_PASSWORD);
    } finally {
      strict.close();
    }
  });
});
