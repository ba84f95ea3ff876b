import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  HttpSender,
  listDeliveryLog,
  readPushState,
  replayFrom,
  runDelivery,
  saveCdrPushSettings,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { TimeFormatter } from '../../../src/cdr/wire-record.js';
import { VERSION } from '../../../src/shared/version.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { captureLogger, type ManualClock, manualClock } from './support/push-support.js';

describe.each(storeKinds())('CDR push delivery on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let clock: ManualClock;
  let sender: HttpSender;
  const receivers: CdrReceiver[] = [];
  const time = new TimeFormatter('UTC');
  const run = (logger = captureLogger()) => runDelivery({ store, sender, time, clock, logger });
  const receiver = async (o: Parameters<typeof startCdrReceiver>[0] = {}) => {
    const r = await startCdrReceiver(o);
    receivers.push(r);
    return r;
  };

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    clock = manualClock();
    sender = new HttpSender({ timeoutMs: 2000 });
  });
  afterEach(async () => {
    sender.close();
    for (const r of receivers.splice(0)) await r.close();
    await store.close();
    await tdb.drop();
  });

  test('sends exactly the records stored after enabling, in order, with only the chosen fields, x-api-key and PUT', async () => {
    await insertCdrRecords(store, fixtureRecords(1, 3));
    const r = await receiver({ apiKey: 'crm-key-1' });
    await saveCdrPushSettings(
      store,
      {
        enabled: true,
        url: r.url,
        method: 'PUT',
        api_key: 'crm-key-1',
        fields: ['db_id', 'call_id', 'disposition'],
        interval_seconds: 1,
      },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(4, 8));
    expect(await run()).toEqual({ outcome: 'drained', acknowledged: 5, parked: 0, requests: 5 });
    expect(r.records).toEqual(
      fixtureRecords(4, 8).map((f, i) => ({ db_id: 4 + i, call_id: f.uniqueid, disposition: f.disposition })),
    );
    expect(r.requests.map((q) => [q.method, q.status, q.idempotencyKey, q.userAgent])).toEqual(
      [4, 5, 6, 7, 8].map((id) => ['PUT', 200, `cdr-${id}`, `branchgate/${VERSION}`]),
    );
    expect((await readPushState(store.db)).ackedDbId).toBe(8);
    expect(await run()).toEqual({ outcome: 'drained', acknowledged: 0, parked: 0, requests: 0 });
  });

  test('authenticates with Bearer, then with Basic, as the receiver demands', async () => {
    const bearer = await receiver({ bearer: 'tok-9' });
    await saveCdrPushSettings(
      store,
      { enabled: true, url: bearer.url, bearer_token: 'tok-9', fields: ['db_id'] },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 2));
    expect((await run()).acknowledged).toBe(2);
    expect(bearer.records).toEqual([{ db_id: 1 }, { db_id: 2 }]);

    const basic = await receiver({ basic: 'crm:pa ss' });
    await saveCdrPushSettings(
      store,
      { url: basic.url, bearer_token: '', username: 'crm', password: 'pa ss' },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(3, 4));
    expect((await run()).acknowledged).toBe(2);
    expect(basic.records).toEqual([{ db_id: 3 }, { db_id: 4 }]);
    expect(basic.requests.every((q) => q.method === 'POST' && q.status === 200)).toBe(true);
  });

  test('a refused request ends the run and the next run starts from the same record; failing-since is kept until success', async () => {
    const r = await receiver({ apiKey: 'right' });
    await saveCdrPushSettings(
      store,
      { enabled: true, url: r.url, api_key: 'wrong', send_history: true },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 3));
    const logger = captureLogger();
    expect(await run(logger)).toEqual({ outcome: 'failed', acknowledged: 0, parked: 0, requests: 1 });
    const failedAt = clock.now();
    clock.advance(60_000);
    expect((await run()).outcome).toBe('failed');
    let state = await readPushState(store.db);
    expect(state).toMatchObject({ ackedDbId: 0, failingSinceMs: failedAt });
    const log = await listDeliveryLog(store, 10);
    expect(log.map((e) => [e.firstDbId, e.status, e.error])).toEqual([
      [1, 401, 'HTTP 401'],
      [1, 401, 'HTTP 401'],
    ]);
    expect(logger.lines.join('\n')).not.toContain('wrong');

    await saveCdrPushSettings(store, { api_key: 'right' }, clock.now());
    expect((await run()).acknowledged).toBe(3);
    state = await readPushState(store.db);
    expect(state).toMatchObject({ ackedDbId: 3, failingSinceMs: null, lastSuccessMs: clock.now() });
    expect(r.requests.map((q) => [q.idempotencyKey, q.status])).toEqual([
      ['cdr-1', 401],
      ['cdr-1', 401],
      ['cdr-1', 200],
      ['cdr-2', 200],
      ['cdr-3', 200],
    ]);
  });

  test('does not follow a redirect: a 3xx is a failure and the target gets nothing', async () => {
    const target = await receiver();
    const redirector = http.createServer((_req, res) => {
      res.writeHead(307, { location: target.url });
      res.end();
    });
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/cdr`;
      await saveCdrPushSettings(store, { enabled: true, url, send_history: true }, clock.now());
      await insertCdrRecords(store, fixtureRecords(1, 1));
      expect((await run()).outcome).toBe('failed');
      expect(target.requests).toEqual([]);
      const [entry] = await listDeliveryLog(store, 1);
      expect(entry).toMatchObject({ status: 307, error: `HTTP 307 redirect to ${target.url} not followed` });
    } finally {
      redirector.closeAllConnections();
      await new Promise<void>((done) => redirector.close(() => done()));
    }
  });

  test('a receiver that never answers times out after the per-request timeout and nothing is acknowledged', async () => {
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    const r = await receiver({ beforeAnswer: () => held });
    sender.close();
    sender = new HttpSender({ timeoutMs: 150 });
    await saveCdrPushSettings(store, { enabled: true, url: r.url, send_history: true }, clock.now());
    await insertCdrRecords(store, fixtureRecords(1, 2));
    expect((await run()).outcome).toBe('failed');
    release();
    const [entry] = await listDeliveryLog(store, 1);
    expect(entry).toMatchObject({ firstDbId: 1, status: null, error: 'timed out after 150 ms' });
    expect((await readPushState(store.db)).ackedDbId).toBe(0);
  });

  test('first enable starts after the newest record unless send_history is set', async () => {
    await insertCdrRecords(store, fixtureRecords(1, 4));
    const r = await receiver();
    await saveCdrPushSettings(store, { enabled: true, url: r.url }, clock.now());
    expect((await readPushState(store.db)).ackedDbId).toBe(4);
    // Disabling and enabling again keeps the cursor: nothing stored meanwhile is lost.
    await saveCdrPushSettings(store, { enabled: false }, clock.now());
    await insertCdrRecords(store, fixtureRecords(5, 6));
    await saveCdrPushSettings(store, { enabled: true, send_history: true }, clock.now());
    await run();
    expect(r.records.map((x) => x.db_id)).toEqual([5, 6]);

    const other = await createTestDatabase(kind);
    const s2 = await openStore({ db: other.url });
    try {
      await insertCdrRecords(s2, fixtureRecords(1, 4));
      await saveCdrPushSettings(s2, { enabled: true, url: r.url, send_history: true }, clock.now());
      expect((await readPushState(s2.db)).ackedDbId).toBe(0);
    } finally {
      await s2.close();
      await other.drop();
    }
  });

  test('replay sends again from the given db_id, and rejects one beyond the newest record', async () => {
    const r = await receiver();
    await saveCdrPushSettings(
      store,
      { enabled: true, url: r.url, send_history: true, fields: ['db_id'] },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 5));
    await run();
    await replayFrom(store, 3);
    await run();
    expect(r.records.map((x) => x.db_id)).toEqual([1, 2, 3, 4, 5, 3, 4, 5]);
    await expect(replayFrom(store, 7)).rejects.toThrow(
      'from_db_id: 7 is beyond the newest record (db_id 5); give at most 6',
    );
    await replayFrom(store, 6);
    await run();
    expect(r.records).toHaveLength(8);
  });

  test('a replay during a run wins: the run stops instead of moving the cursor back past it', async () => {
    let replayed = false;
    const r = await receiver({
      beforeAnswer: async (req) => {
        if (!replayed && req.idempotencyKey === 'cdr-3') {
          replayed = true;
          await replayFrom(store, 1);
        }
      },
    });
    await saveCdrPushSettings(
      store,
      { enabled: true, url: r.url, send_history: true, fields: ['db_id'] },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 5));
    expect(await run()).toEqual({ outcome: 'moved', acknowledged: 2, parked: 0, requests: 3 });
    expect((await readPushState(store.db)).ackedDbId).toBe(0);
    await run();
    expect(r.records.map((x) => x.db_id)).toEqual([1, 2, 3, 1, 2, 3, 4, 5]);
  });

  test('batch mode sends {"data":[...]} of up to batch_size records keyed by the first db_id', async () => {
    const r = await receiver();
    await saveCdrPushSettings(
      store,
      { enabled: true, url: r.url, send_history: true, batch_size: 4, fields: ['db_id', 'timestamp'] },
      clock.now(),
    );
    const recs = fixtureRecords(1, 10);
    await insertCdrRecords(store, recs);
    expect(await run()).toEqual({ outcome: 'drained', acknowledged: 10, parked: 0, requests: 3 });
    expect(r.requests.map((q) => [q.batch, q.idempotencyKey, q.records.length])).toEqual([
      [true, 'cdr-1', 4],
      [true, 'cdr-5', 4],
      [true, 'cdr-9', 2],
    ]);
    expect(r.records).toEqual(recs.map((f, i) => ({ db_id: i + 1, timestamp: String(f.start) })));
    const log = await listDeliveryLog(store, 10);
    expect(log.map((e) => [e.firstDbId, e.lastDbId, e.records, e.status])).toEqual([
      [9, 10, 2, 200],
      [5, 8, 4, 200],
      [1, 4, 4, 200],
    ]);
  });

  test('switching delivery off is honoured by the next run', async () => {
    const r = await receiver();
    await saveCdrPushSettings(store, { enabled: true, url: r.url, send_history: true }, clock.now());
    await saveCdrPushSettings(store, { enabled: false }, clock.now());
    await insertCdrRecords(store, fixtureRecords(1, 2));
    expect((await run()).outcome).toBe('disabled');
    expect(r.requests).toEqual([]);
  });
});
