import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type CdrReceiver, startCdrReceiver } from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { buildApp } from '../../../src/server/app.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { adminCookie, type ManualClock, manualClock } from './support/push-support.js';

describe.each(storeKinds())('CDR push REST API on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  let clock: ManualClock;
  let cookie: string;
  let receiver: CdrReceiver;

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    clock = manualClock();
    ({ app } = await buildApp({ store, clock, logLevel: 'silent' }));
    cookie = await adminCookie(store, clock);
    receiver = await startCdrReceiver({ apiKey: 'S3CRET-KEY' });
  });
  afterEach(async () => {
    await receiver.close();
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
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  test.each([
    [{ bearer_token: 'b', username: 'u', password: 'p' }, /^bearer_token: /],
    [{ url: 'ftp://crm.example/' }, /^url: must be an http:\/\/ or https:\/\/ URL/],
    [{ fields: ['db_id', 'nope'] }, /^fields: unknown field "nope"/],
    [{ interval_seconds: 0 }, /^interval_seconds: must be between 1/],
  ])('PUT %j answers 400 naming the field and changes nothing', async (body, message) => {
    const before = (await get('/api/settings/cdr-push')).json();
    const res = await put(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'bad_setting', message: expect.stringMatching(message) } });
    expect((await get('/api/settings/cdr-push')).json()).toEqual(before);
  });

  test('secrets are write-only: GET shows whether each is set, never its value', async () => {
    const res = await put({
      enabled: true,
      url: receiver.url,
      api_key: 'S3CRET-KEY',
      username: 'crm',
      password: 'PW-xyz',
    });
    expect(res.statusCode).toBe(200);
    const shown = await get('/api/settings/cdr-push');
    expect(shown.json()).toMatchObject({
      api_key_set: true,
      password_set: true,
      bearer_token_set: false,
      username: 'crm',
    });
    for (const body of [res.body, shown.body]) {
      expect(body).not.toContain('S3CRET-KEY');
      expect(body).not.toContain('PW-xyz');
    }
  });

  test('admin only: no session is 401 with the error envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/cdr-push/log' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
    const put401 = await app.inject({
      method: 'PUT',
      url: '/api/settings/cdr-push',
      payload: { enabled: false },
    });
    expect(put401.statusCode).toBe(401);
  });

  test('replay moves the cursor and the log shows backlog; bad from_db_id is 400', async () => {
    await insertCdrRecords(store, fixtureRecords(1, 6));
    await put({ enabled: true, url: receiver.url, api_key: 'S3CRET-KEY' });
    let log = (await get('/api/cdr-push/log')).json();
    expect(log).toMatchObject({
      enabled: true,
      last_acknowledged_db_id: 6,
      backlog: 0,
      failing_since: null,
      data: [],
    });
    const replay = await app.inject({
      method: 'POST',
      url: '/api/cdr-push/replay',
      headers: { cookie },
      payload: { from_db_id: 2 },
    });
    expect(replay.json()).toEqual({ from_db_id: 2, last_acknowledged_db_id: 1, backlog: 5 });
    log = (await get('/api/cdr-push/log')).json();
    expect(log).toMatchObject({ last_acknowledged_db_id: 1, backlog: 5 });
    for (const payload of [{ from_db_id: 0 }, { from_db_id: 'x' }, {}]) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/cdr-push/replay',
        headers: { cookie },
        payload,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toMatch(/^from_db_id: /);
    }
    expect((await get('/api/cdr-push/log?limit=0')).statusCode).toBe(400);
  });

  test('send test record reports the receiver answer and logs it without moving the cursor', async () => {
    await put({ url: receiver.url, api_key: 'S3CRET-KEY', fields: ['db_id', 'call_id'] });
    const ok = await app.inject({ method: 'POST', url: '/api/cdr-push/test', headers: { cookie } });
    expect(ok.json()).toMatchObject({ ok: true, status: 200, error: '' });
    expect(receiver.records).toEqual([{ db_id: 0, call_id: `branchgate-test-${clock.now()}` }]);
    expect(receiver.requests[0]?.idempotencyKey).toBe(`cdr-test-${clock.now()}`);

    await put({ api_key: 'wrong-key' });
    const refused = await app.inject({ method: 'POST', url: '/api/cdr-push/test', headers: { cookie } });
    expect(refused.json()).toMatchObject({ ok: false, status: 401, error: 'HTTP 401' });
    expect(refused.json().body).toContain('x-api-key missing or wrong');
    const log = (await get('/api/cdr-push/log')).json();
    expect(log.data.map((e: { kind: string; status: number }) => [e.kind, e.status])).toEqual([
      ['test', 401],
      ['test', 200],
    ]);
    expect(log.last_acknowledged_db_id).toBeNull();
  });

  test('send test record without a URL is 400 naming url', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/cdr-push/test', headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'not_configured', message: 'url: set the receiver URL first' },
    });
  });
});
