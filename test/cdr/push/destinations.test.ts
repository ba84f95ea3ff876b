// Push destinations over REST (/api/cdr-push/destinations[/ID] and the per-destination log,
// replay, test, parked routes): add, change, list, remove, every refusal naming its field and
// changing nothing, secrets shown only once when made, and each destination's cursor and log its
// own. Both stores; deliveries go to real loopback receivers.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  HttpSender,
  readPushState,
  runDelivery,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { TimeFormatter } from '../../../src/cdr/wire-record.js';
import { buildApp } from '../../../src/server/app.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { adminCookie, type ManualClock, manualClock } from './support/push-support.js';

describe.each(storeKinds())('CDR push destinations over REST on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let clock: ManualClock;
  let app: FastifyInstance;
  let cookie: string;
  let crm: CdrReceiver;
  let billing: CdrReceiver;
  let sender: HttpSender;
  const time = new TimeFormatter('UTC');

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    clock = manualClock();
    ({ app } = await buildApp({ store, clock, logLevel: 'silent' }));
    cookie = await adminCookie(store, clock);
    crm = await startCdrReceiver({ apiKey: 'crm-key' });
    billing = await startCdrReceiver({ bearer: 'bill-token' });
    sender = new HttpSender({ timeoutMs: 5000 });
  });
  afterEach(async () => {
    sender.close();
    await crm.close();
    await billing.close();
    await app.close();
    await store.close();
    await tdb.drop();
  });

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body === '' ? null : res.json() };
  };
  const ids = async () =>
    ((await api('GET', '/api/cdr-push/destinations')).body.data as Array<{ id: number }>).map((d) => d.id);

  test('add, change, list and remove; refusals name the field and change nothing', async () => {
    expect(await ids()).toEqual([1]);
    for (const [body, message] of [
      [{ name: 'x', enabled: true }, 'url: is required to enable delivery'],
      [{ name: 'x', url: 'ftp://a/' }, 'url: must be an http:// or https:// URL'],
      [{ name: 'x'.repeat(101) }, 'name: is longer than 100 characters'],
      [{ name: 'a\u0007b' }, 'name: may not hold control characters'],
      [{ colour: 'red' }, 'colour: unknown setting'],
    ] as const) {
      const res = await api('POST', '/api/cdr-push/destinations', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect(await ids()).toEqual([1]);

    const made = await api('POST', '/api/cdr-push/destinations', {
      name: ' billing ',
      url: billing.url,
      bearer_token: 'bill-token',
      fields: ['db_id', 'call_id'],
      signing_secret: 'generate',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: 2,
      name: 'billing',
      enabled: false,
      bearer_token_set: true,
      signing_secret_set: true,
      status: { enabled: false, last_acknowledged_db_id: null, backlog: 0, parked: 0, alert: false },
    });
    expect(made.body.signing_secret).toMatch(/^whsec_/);
    expect(JSON.stringify(made.body)).not.toContain('bill-token');
    const got = await api('GET', '/api/cdr-push/destinations/2');
    expect(got.body).not.toHaveProperty('signing_secret');
    expect(got.body.name).toBe('billing');

    const bad = await api('PATCH', '/api/cdr-push/destinations/2', { interval_seconds: 0, name: 'changed' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('interval_seconds: must be between 1 and 86400, not 0');
    expect((await api('GET', '/api/cdr-push/destinations/2')).body.name).toBe('billing');
    const patched = await api('PATCH', '/api/cdr-push/destinations/2', { interval_seconds: 5 });
    expect(patched.body).toMatchObject({ id: 2, interval_seconds: 5, name: 'billing' });
    // Destination 1 at its seed address and under /destinations/1 is the same thing, and untouched.
    expect((await api('GET', '/api/settings/cdr-push')).body).toMatchObject({
      url: '',
      interval_seconds: 60,
    });
    expect((await api('PATCH', '/api/cdr-push/destinations/1', { name: 'CRM' })).status).toBe(200);
    expect((await api('GET', '/api/settings/cdr-push')).body.name).toBe('CRM');

    expect((await api('POST', '/api/cdr-push/destinations', { name: 'third' })).body.id).toBe(3);
    expect(await ids()).toEqual([1, 2, 3]);
    for (const [method, url, status] of [
      ['GET', '/api/cdr-push/destinations/9', 404],
      ['PATCH', '/api/cdr-push/destinations/9', 404],
      ['DELETE', '/api/cdr-push/destinations/9', 404],
      ['GET', '/api/cdr-push/destinations/9/log', 404],
      ['GET', '/api/cdr-push/destinations/abc', 400],
      ['DELETE', '/api/cdr-push/destinations/1', 400],
    ] as const) {
      const res = await api(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(res.status, `${method} ${url}`).toBe(status);
      expect(res.body.error.message).toMatch(/^destination: /);
    }
    expect((await api('DELETE', '/api/cdr-push/destinations/2')).status).toBe(204);
    expect(await ids()).toEqual([1, 3]);
    expect((await api('GET', '/api/cdr-push/destinations/2')).status).toBe(404);
  });

  test('each destination has its own cursor, log, replay and test record', async () => {
    await insertCdrRecords(store, fixtureRecords(1, 4));
    await api('PUT', '/api/settings/cdr-push', {
      enabled: true,
      url: crm.url,
      api_key: 'crm-key',
      send_history: true,
      fields: ['db_id'],
    });
    const two = await api('POST', '/api/cdr-push/destinations', {
      name: 'billing',
      enabled: true,
      url: billing.url,
      bearer_token: 'bill-token',
      fields: ['db_id'],
    });
    // Destination 2 starts after the newest record (no send_history); 1 from the start.
    expect(two.body.status.last_acknowledged_db_id).toBe(4);
    await insertCdrRecords(store, fixtureRecords(5, 6));
    const run = (destination: number) =>
      runDelivery({ store, sender, time, clock, ...(destination === 1 ? {} : { destination }) });
    expect(await run(2)).toMatchObject({ outcome: 'drained', acknowledged: 2 });
    expect(billing.records.map((r) => r.db_id)).toEqual([5, 6]);
    expect(crm.records).toEqual([]);
    expect((await readPushState(store.db, 1)).ackedDbId).toBe(0);
    expect(await run(1)).toMatchObject({ outcome: 'drained', acknowledged: 6 });
    expect(crm.records.map((r) => r.db_id)).toEqual([1, 2, 3, 4, 5, 6]);

    const log2 = (await api('GET', '/api/cdr-push/destinations/2/log')).body;
    expect(log2).toMatchObject({ enabled: true, last_acknowledged_db_id: 6, backlog: 0 });
    expect(log2.data.map((e: { first_db_id: number }) => e.first_db_id)).toEqual([6, 5]);
    const log1 = (await api('GET', '/api/cdr-push/log')).body;
    expect(log1.data).toHaveLength(6);

    const replay = await api('POST', '/api/cdr-push/destinations/2/replay', { from_db_id: 3 });
    expect(replay.body).toEqual({ from_db_id: 3, last_acknowledged_db_id: 2, backlog: 4 });
    expect((await readPushState(store.db, 1)).ackedDbId).toBe(6);
    const test = await api('POST', '/api/cdr-push/destinations/2/test');
    expect(test.body).toMatchObject({ ok: true, status: 200 });
    expect(billing.requests.at(-1)?.idempotencyKey).toMatch(/^cdr-test-/);
    expect((await api('GET', '/api/cdr-push/destinations/2/parked')).body).toEqual({ total: 0, data: [] });

    const list = (await api('GET', '/api/cdr-push/destinations')).body.data;
    expect(list.map((d: { id: number; status: { backlog: number } }) => [d.id, d.status.backlog])).toEqual([
      [1, 0],
      [2, 4],
    ]);
    // Removing a destination takes its log with it; the other's stays.
    await api('DELETE', '/api/cdr-push/destinations/2');
    expect(await store.db.selectFrom('cdr_push_log').select('destination_id').distinct().execute()).toEqual([
      { destination_id: 1 },
    ]);
  });
});
