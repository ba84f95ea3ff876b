// /api/webhooks on a real `branchgate serve` (simulated modem): add (secret shown once), refusals
// naming the field, rotation, attempts, delete; and modem:state, sms:sent and sms:delivered events
// arriving signed by both secrets during a rotation.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { verifyWebhook } from '../../src/client/index.js';
import { eventually, smsPost } from '../sms/api/support/sms-client.js';
import { send } from '../support/https-client.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';

const PASSWORD = 'webhooks-api-pw-1';

describe('webhooks over the REST API', () => {
  let srv: ServeProcess | undefined;
  let receiver: Server | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('add, refuse, rotate, deliver modem and SMS events, list attempts, delete', async () => {
    const got: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver?.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    dir = mkdtempSync(join(tmpdir(), 'bg-webhooks-api-'));
    srv = await spawnServe(['--data-dir', dir, '--listen', '127.0.0.1:0', '--modem', 'sim'], {
      env: {
        BRANCHGATE_ADMIN_PASSWORD: PASSWORD,
        BRANCHGATE_SMS_STATUS_POLL_MS: '100',
        BRANCHGATE_WEBHOOK_POLL_MS: '100',
      },
    });
    const base = srv.url;
    const login = await send(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const api = (method: string, path: string, body?: unknown) =>
      send(`${base}${path}`, {
        method,
        headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const refusals: Array<[unknown, RegExp]> = [
      [{ url: 'ftp://x', events: ['sms:sent'] }, /^url: must be http:\/\/ or https:\/\//],
      [{ url, events: [] }, /^events: give a list of one or more of sms:received/],
      [{ url, events: ['sms:nope'] }, /^events: "sms:nope" is not one of/],
      [{ url, events: ['sms:sent'], secret: 'whsec_short' }, /^secret: /],
    ];
    for (const [body, message] of refusals) {
      const r = await api('POST', '/api/webhooks', body);
      expect(r.status).toBe(400);
      expect(r.json().error.message).toMatch(message);
    }
    expect((await api('GET', '/api/webhooks')).json().webhooks).toEqual([]);

    const added = await api('POST', '/api/webhooks', {
      url,
      events: ['modem:state', 'sms:sent', 'sms:delivered'],
    });
    expect(added.status).toBe(201);
    const first = added.json().secret as string;
    expect(first).toMatch(/^whsec_/);
    const id = added.json().webhook.id as number;
    const rotated = await api('PATCH', `/api/webhooks/${id}`, { secret: 'rotate' });
    const second = rotated.json().secret as string;
    expect(rotated.json().webhook).toMatchObject({ signed: true, rotating: true });
    expect((await api('GET', '/api/webhooks')).json().webhooks[0]).not.toHaveProperty('secret');

    // A signal loss on the simulated modem, then an SMS sent and delivered.
    await smsPost(base, '/api/modem-sim/radio', { auth: PASSWORD, csq: 99, registration: 2 });
    const types = () => got.map((g) => JSON.parse(g.body).type as string);
    await eventually('modem:state', async () => (types().includes('modem:state') ? true : undefined));
    await smsPost(base, '/api/modem-sim/radio', { auth: PASSWORD, csq: 20, registration: 1 });
    const sent = await smsPost(base, '/api/sms/send-one', {
      auth: PASSWORD,
      to: '+15551234567',
      message: 'hook me',
    });
    expect(sent.json().status).toBe('success');
    await eventually('sms:delivered', async () => (types().includes('sms:delivered') ? true : undefined));

    const states = got
      .filter((g) => JSON.parse(g.body).type === 'modem:state')
      .map((g) => JSON.parse(g.body).data);
    expect(states[0]).toMatchObject({ state: 'lost', previous: 'registered', signal_level: 0 });
    const smsSent = JSON.parse(got.find((g) => JSON.parse(g.body).type === 'sms:sent')?.body as string);
    expect(smsSent.data).toMatchObject({
      type: 'sent',
      number: '+15551234567',
      message: 'hook me',
      status: 'sent',
    });
    for (const g of got) {
      // Both secrets of the rotation verify each delivery.
      expect(verifyWebhook(g.headers, g.body, [first]).id).toBe(g.headers['webhook-id']);
      expect(verifyWebhook(g.headers, g.body, [second]).id).toBe(g.headers['webhook-id']);
    }
    // In event order.
    const ids = got.map((g) => Number(String(g.headers['webhook-id']).slice(4)));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const attempts = (await api('GET', `/api/webhooks/${id}/attempts`)).json().attempts;
    expect(attempts.length).toBe(got.length);
    expect(attempts[0]).toMatchObject({ status: 200, error: '' });
    expect((await api('PATCH', `/api/webhooks/${id}`, { end_rotation: true })).json().webhook.rotating).toBe(
      false,
    );
    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(204);
    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await send(`${base}/api/webhooks`)).status).toBe(401);
  }, 60_000);
});
