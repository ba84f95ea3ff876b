// CDR push signed per Standard Webhooks: the secret generated (shown once) or given, two secrets
// during a rotation, each signature checked here with node:crypto directly; and `branchgate cdr
// receive --secret` refusing a tampered body and a timestamp older than 5 minutes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_CDR_PUSH_SETTINGS } from '../../../src/cdr/push/index.js';
import { buildPushRequest } from '../../../src/cdr/push/request-body.js';
import { buildApp } from '../../../src/server/app.js';
import { generateSecret } from '../../../src/shared/standard-webhooks.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { BIN } from '../../support/serve-process.js';
import { adminCookie, type ManualClock, manualClock } from './support/push-support.js';

/** The v1 signature of a request under a secret, computed here without the project's code. */
function independent(secret: string, headers: IncomingHttpHeaders, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(
    `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`,
  );
  return `v1,${mac.digest('base64')}`;
}

describe.each(storeKinds())('signed CDR push on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  let clock: ManualClock;
  let cookie: string;
  let receiver: Server;
  const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    clock = manualClock();
    ({ app } = await buildApp({ store, clock, logLevel: 'silent' }));
    cookie = await adminCookie(store, clock);
    got.length = 0;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  });
  afterEach(async () => {
    receiver.close();
    await app.close();
    await store.close();
    await tdb.drop();
  });

  const put = (body: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/api/settings/cdr-push',
      headers: { cookie },
      payload: body as object,
    });
  const sendTest = () => app.inject({ method: 'POST', url: '/api/cdr-push/test', headers: { cookie } });

  test('a generated secret is shown once and signs; a rotation signs with both; bad secrets are refused by name', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cdr`;
    const made = await put({ url, signing_secret: 'generate' });
    expect(made.statusCode).toBe(200);
    const first = made.json().signing_secret as string;
    expect(first).toMatch(/^whsec_/);
    const view = (
      await app.inject({ method: 'GET', url: '/api/settings/cdr-push', headers: { cookie } })
    ).json();
    expect(view).toMatchObject({ signing_secret_set: true, signing_rotating: false });
    expect(view).not.toHaveProperty('signing_secret');

    expect((await sendTest()).statusCode).toBe(200);
    const one = got.at(-1);
    if (!one) throw new Error('nothing arrived');
    expect(one.headers['webhook-id']).toBe(one.headers['idempotency-key']);
    expect(Number(one.headers['webhook-timestamp'])).toBe(Math.floor(clock.now() / 1000));
    expect(one.headers['webhook-signature']).toBe(independent(first, one.headers, one.body));

    const rotated = await put({ signing_secret: 'rotate' });
    const second = rotated.json().signing_secret as string;
    expect(rotated.json()).toMatchObject({ signing_rotating: true });
    await sendTest();
    const two = got.at(-1);
    if (!two) throw new Error('nothing arrived');
    expect(String(two.headers['webhook-signature']).split(' ')).toEqual([
      independent(second, two.headers, two.body),
      independent(first, two.headers, two.body),
    ]);
    const ended = await put({ end_signing_rotation: true });
    expect(ended.json()).toMatchObject({ signing_secret_set: true, signing_rotating: false });
    expect(ended.json()).not.toHaveProperty('signing_secret');

    const bad = await put({ signing_secret: 'whsec_tooshort' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^signing_secret: /);
    const off = await put({ signing_secret: null });
    expect(off.json()).toMatchObject({ signing_secret_set: false });
    await sendTest();
    expect(got.at(-1)?.headers).not.toHaveProperty('webhook-signature');
  });
});

describe('cdr receive --secret', () => {
  let proc: ChildProcess | undefined;
  afterEach(() => {
    proc?.kill('SIGKILL');
  });

  test('accepts a signed push and refuses a tampered body and a stale timestamp', async () => {
    const secret = generateSecret();
    const old = generateSecret();
    proc = spawn(
      process.execPath,
      [BIN, 'cdr', 'receive', '--listen', '127.0.0.1:0', '--secret', secret, '--secret', old],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    for (let i = 0; i < 200 && !/listening on (http:\/\/\S+)/.test(out); i++)
      await new Promise((r) => setTimeout(r, 50));
    const url = /listening on (http:\/\/\S+?),?\s/.exec(`${out} `)?.[1] as string;
    const settings = {
      ...DEFAULT_CDR_PUSH_SETTINGS,
      url,
      signing_secret: secret,
      previous_signing_secret: old,
    };
    const record = { db_id: 7, call_id: 'abc' } as never;
    const post = (req: ReturnType<typeof buildPushRequest>, body = req.body) =>
      send(url, { method: 'POST', headers: req.headers, body });

    const good = buildPushRequest(settings, [record]);
    expect((await post(good)).status).toBe(200);
    // Only the old secret of a rotation signs: still accepted.
    const oldOnly = buildPushRequest({ ...settings, signing_secret: old, previous_signing_secret: '' }, [
      record,
    ]);
    expect((await post(oldOnly)).status).toBe(200);
    const tampered = await post(good, good.body.replace('abc', 'abd'));
    expect(tampered.status).toBe(401);
    expect(tampered.text).toMatch(/signature: no signature matches/);
    const stale = buildPushRequest(settings, [record], undefined, Date.now() - 301_000);
    const refused = await post(stale);
    expect(refused.status).toBe(401);
    expect(refused.text).toMatch(
      /signature: webhook-timestamp \d+ is 30[12] s from now; at most 300 s allowed/,
    );
    const unsigned = buildPushRequest({ ...settings, signing_secret: '', previous_signing_secret: '' }, [
      record,
    ]);
    expect((await post(unsigned)).status).toBe(401);
  }, 30_000);
});
