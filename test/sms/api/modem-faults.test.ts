// send-one against a modem that answers +CMS ERROR or nothing at all: the answer comes within the
// bounded wait (queued or failed), the server keeps answering meanwhile, and a queued message is
// sent exactly once after the modem recovers.
import { afterEach, describe, expect, test } from 'vitest';
import { storeKinds } from '../../support/databases.js';
import { eventually, smsPost } from './support/sms-client.js';
import { ADMIN_PASSWORD as auth, type SmsTestServer, startSmsServer } from './support/sms-server.js';

const SEND_WAIT_MS = 2500;

describe.each(storeKinds())('modem faults on %s', (kind) => {
  let srv: SmsTestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  async function start(): Promise<SmsTestServer> {
    srv = await startSmsServer(kind, {
      sms: { sendWaitMs: SEND_WAIT_MS, retry: { baseDelayMs: 300, maxDelayMs: 1000, maxAttempts: 100 } },
    });
    return srv;
  }

  async function sentMessage(s: SmsTestServer, id: string) {
    return (await smsPost(s.url, '/api/sms/get-one', { auth, type: 'sent', id })).json().data;
  }

  test('+CMS ERROR 500 (transient) answers queued, and the message is sent once the error stops', async () => {
    const s = await start();
    s.simulator?.setFaults({ sendError: 500 });
    const t0 = Date.now();
    const res = await smsPost(s.url, '/api/sms/send-one', { auth, to: '+15551230001', message: 'retry me' });
    expect(Date.now() - t0).toBeLessThan(SEND_WAIT_MS + 1500);
    const queued = res.json().data;
    expect(res.status).toBe(200);
    expect(queued.status).toBe('queued');
    expect(queued.error).toBeUndefined();
    // Retries keep failing while the error lasts; nothing reaches the network.
    await new Promise((r) => setTimeout(r, 800));
    expect((await sentMessage(s, queued.id)).status).toBe('queued');
    expect(s.simulator?.sent.length).toBe(0);
    s.simulator?.setFaults({ sendError: undefined });
    const done = await eventually('the retry to succeed', async () => {
      const m = await sentMessage(s, queued.id);
      return m.status === 'sent' || m.status === 'delivered' ? m : undefined;
    });
    expect(done.reference).toBeTypeOf('number');
    expect(s.simulator?.sent.map((m) => m.text)).toEqual(['retry me']);
  });

  test('+CMS ERROR 21 (rejected, permanent) answers failed with the modem error', async () => {
    const s = await start();
    s.simulator?.setFaults({ sendError: 21 });
    const res = await smsPost(s.url, '/api/sms/send-one', { auth, to: '+15551230002', message: 'no way' });
    const failed = res.json().data;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/\+CMS ERROR: 21/);
    const listed = (await smsPost(s.url, '/api/sms/get-all', { auth, type: 'sent' })).json().data;
    expect(listed).toEqual([failed]);
    // A failed message stays failed: clearing the fault sends nothing.
    s.simulator?.setFaults({ sendError: undefined });
    await new Promise((r) => setTimeout(r, 800));
    expect((await sentMessage(s, failed.id)).status).toBe('failed');
    expect(s.simulator?.sent.length).toBe(0);
  });

  test('a modem that stops answering: queued within the wait, server responsive, sent once it answers again', async () => {
    const s = await start();
    s.simulator?.setFaults({ noAnswer: true });
    const t0 = Date.now();
    const pending = smsPost(s.url, '/api/sms/send-one', {
      auth,
      to: '+15551230003',
      message: 'are you there',
    });
    // While the modem is silent the API still answers at once.
    const t1 = Date.now();
    const list = await smsPost(s.url, '/api/sms/get-all', { auth, type: 'received' });
    expect(list.status).toBe(200);
    expect(Date.now() - t1).toBeLessThan(1500);
    const res = await pending;
    expect(Date.now() - t0).toBeLessThan(SEND_WAIT_MS + 1500);
    const queued = res.json().data;
    expect(queued.status).toBe('queued');
    // Another send while the modem is still silent (and recovering) is queued too.
    const second = (
      await smsPost(s.url, '/api/sms/send-one', { auth, to: '+15551230004', message: 'second' })
    ).json().data;
    expect(second.status).toBe('queued');
    s.simulator?.setFaults({ noAnswer: false });
    for (const id of [queued.id, second.id]) {
      await eventually(
        `message ${id} to be sent after recovery`,
        async () => {
          const m = await sentMessage(s, id);
          return m.status === 'sent' || m.status === 'delivered' ? m : undefined;
        },
        30_000,
      );
    }
    expect(s.simulator?.sent.map((m) => m.text).sort()).toEqual(['are you there', 'second']);
  }, 60_000);

  test('deleting a queued message cancels it: nothing is sent when the modem recovers', async () => {
    const s = await start();
    s.simulator?.setFaults({ sendError: 500 });
    const queued = (
      await smsPost(s.url, '/api/sms/send-one', { auth, to: '+15551230005', message: 'never mind' })
    ).json().data;
    expect(queued.status).toBe('queued');
    const deleted = await smsPost(s.url, '/api/sms/delete-one', { auth, type: 'sent', id: queued.id });
    expect(deleted.json().data.id).toBe(queued.id);
    s.simulator?.setFaults({ sendError: undefined });
    // Retries run every 300-1000 ms here: give them time to (wrongly) send it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.simulator?.sent).toEqual([]);
    expect((await smsPost(s.url, '/api/sms/get-all', { auth, type: 'sent' })).json().data).toEqual([]);
  });
});
