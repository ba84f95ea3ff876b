// Poison records: a receiver that refuses one record with 400 forever. With `hold` (the default)
// the feed waits on it; with `park` after 3 refusals it is set aside, logged, counted and listed,
// the rest arrives in order, and a resend after the receiver is fixed delivers it and empties the
// list. Both stores; real HTTP receiver on loopback; REST through the app.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HttpSender, runDelivery, saveCdrPushSettings } from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { TimeFormatter } from '../../../src/cdr/wire-record.js';
import { buildApp } from '../../../src/server/app.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { adminCookie, captureLogger, type ManualClock, manualClock } from './support/push-support.js';

/** A receiver that answers 400 to the db_ids in `refuse` and 200 to the rest, recording both. */
async function pickyReceiver() {
  const refuse = new Set<number>();
  const accepted: number[] = [];
  const refused: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const record = JSON.parse(body) as { db_id: number };
      if (refuse.has(record.db_id)) {
        refused.push(record.db_id);
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad record"}');
      } else {
        accepted.push(record.db_id);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cdr`;
  return { url, refuse, accepted, refused, close: () => new Promise((r) => server.close(r)) };
}

describe.each(storeKinds())('CDR push poison records on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let clock: ManualClock;
  let sender: HttpSender;
  let app: FastifyInstance;
  let cookie: string;
  let receiver: Awaited<ReturnType<typeof pickyReceiver>>;
  const time = new TimeFormatter('UTC');
  const run = () => runDelivery({ store, sender, time, clock, logger: captureLogger() });

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    clock = manualClock();
    sender = new HttpSender({ timeoutMs: 2000 });
    ({ app } = await buildApp({ store, clock, logLevel: 'silent' }));
    cookie = await adminCookie(store, clock);
    receiver = await pickyReceiver();
  });
  afterEach(async () => {
    sender.close();
    await receiver.close();
    await app.close();
    await store.close();
    await tdb.drop();
  });

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  test('hold (the default): the refused record stops the feed, run after run', async () => {
    await saveCdrPushSettings(
      store,
      { enabled: true, url: receiver.url, send_history: true, fields: ['db_id'] },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 5));
    receiver.refuse.add(3);
    for (let k = 0; k < 5; k++) {
      expect((await run()).outcome).toBe('failed');
      clock.advance(60_000);
    }
    expect(receiver.accepted).toEqual([1, 2]);
    expect(receiver.refused).toEqual([3, 3, 3, 3, 3]);
    expect((await api('GET', '/api/cdr-push/parked')).json()).toEqual({ total: 0, data: [] });
  });

  test('park after 3 refusals: set aside and listed, the rest in order, resent once the receiver is fixed', async () => {
    const settings = await api('PUT', '/api/settings/cdr-push', {
      enabled: true,
      url: receiver.url,
      send_history: true,
      fields: ['db_id'],
      poison_policy: 'park',
      poison_after: 3,
    });
    expect(settings.json()).toMatchObject({ poison_policy: 'park', poison_after: 3 });
    await insertCdrRecords(store, fixtureRecords(1, 6));
    receiver.refuse.add(3);
    expect(await run()).toMatchObject({ outcome: 'failed', acknowledged: 2, parked: 0 });
    clock.advance(60_000);
    expect(await run()).toMatchObject({ outcome: 'failed', acknowledged: 0, parked: 0 });
    clock.advance(60_000);
    const parkedAt = clock.now();
    expect(await run()).toMatchObject({ outcome: 'drained', acknowledged: 3, parked: 1 });
    expect(receiver.accepted).toEqual([1, 2, 4, 5, 6]);
    expect(receiver.refused).toEqual([3, 3, 3]);

    const listed = await api('GET', '/api/cdr-push/parked');
    expect(listed.json()).toEqual({
      total: 1,
      data: [
        {
          db_id: 3,
          parked_at: new Date(parkedAt).toISOString(),
          status: 400,
          error: expect.stringContaining('400'),
        },
      ],
    });
    const log = (await api('GET', '/api/cdr-push/log')).json();
    expect(log).toMatchObject({ parked: 1, backlog: 0, failing_since: null });
    expect(
      log.data.map((e: { kind: string; first_db_id: number }) => [e.kind, e.first_db_id]),
    ).toContainEqual(['park', 3]);

    // Records stored later flow past the parked one as usual.
    await insertCdrRecords(store, fixtureRecords(7, 7));
    expect(await run()).toMatchObject({ outcome: 'drained', acknowledged: 1, parked: 0 });

    // Still refused: the resend reports it and the record stays parked.
    const again = await api('POST', '/api/cdr-push/parked/resend', { all: true });
    expect(again.json()).toEqual({ resent: 0, remaining: 1, error: expect.stringMatching(/^db_id 3: /) });
    receiver.refuse.clear();
    const resent = await api('POST', '/api/cdr-push/parked/resend', { db_id: 3 });
    expect(resent.json()).toEqual({ resent: 1, remaining: 0, error: '' });
    expect(receiver.accepted).toEqual([1, 2, 4, 5, 6, 7, 3]);
    expect((await api('GET', '/api/cdr-push/parked')).json()).toEqual({ total: 0, data: [] });
    expect((await api('POST', '/api/cdr-push/parked/resend', { db_id: 3 })).statusCode).toBe(404);
  });

  test('only the same 4xx in a row counts: a 503 in between starts the count again', async () => {
    await saveCdrPushSettings(
      store,
      {
        enabled: true,
        url: receiver.url,
        send_history: true,
        fields: ['db_id'],
        poison_policy: 'park',
        poison_after: 2,
      },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 2));
    receiver.refuse.add(1);
    expect((await run()).outcome).toBe('failed');
    // The receiver goes away for a run: a connection failure is no refusal of the record.
    await receiver.close();
    expect((await run()).outcome).toBe('failed');
    receiver = await pickyReceiver();
    receiver.refuse.add(1);
    await saveCdrPushSettings(store, { url: receiver.url }, clock.now());
    expect((await run()).outcome).toBe('failed');
    expect(await run()).toMatchObject({ outcome: 'drained', parked: 1, acknowledged: 1 });
  });

  test('poison settings are validated, naming the field', async () => {
    expect((await api('PUT', '/api/settings/cdr-push', { poison_policy: 'drop' })).json()).toEqual({
      error: {
        code: 'bad_setting',
        message: expect.stringMatching(/^poison_policy: must be "hold" or "park"/),
      },
    });
    expect((await api('PUT', '/api/settings/cdr-push', { poison_after: 0 })).statusCode).toBe(400);
    expect((await api('POST', '/api/cdr-push/parked/resend', {})).statusCode).toBe(400);
  });
});
