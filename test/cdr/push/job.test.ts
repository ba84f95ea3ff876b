import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  type RunResult,
  saveCdrPushSettings,
  startCdrPushJob,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import type { Sleep } from '../../../src/cdr/push/push-job.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { available, createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { captureLogger, manualClock, waitFor } from './support/push-support.js';

/** A sleep the test steps by hand: each wait is announced, and ends on wake() or abort. */
function steppedSleep() {
  const asked: number[] = [];
  let wake = () => {};
  const sleep: Sleep = (ms, signal) =>
    new Promise((resolve) => {
      asked.push(ms);
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  return { sleep, asked, wake: () => wake() };
}

describe.each(storeKinds())('CDR push job on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let receiver: CdrReceiver;
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    receiver = await startCdrReceiver({ apiKey: 'job-key-77' });
  });
  afterEach(async () => {
    await receiver.close();
    await store.close();
    await tdb.drop();
  });

  test('runs, then waits the interval read from the settings each time, and stops cleanly', async () => {
    const clock = manualClock();
    await saveCdrPushSettings(
      store,
      { enabled: true, url: receiver.url, api_key: 'job-key-77', interval_seconds: 7, send_history: true },
      clock.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 3));
    const steps = steppedSleep();
    const logger = captureLogger();
    const runs: RunResult[] = [];
    const job = startCdrPushJob({
      store,
      clock,
      logger,
      sleep: steps.sleep,
      databaseUrl: tdb.url,
      onRun: (r) => runs.push(r),
    });
    await waitFor(() => steps.asked.length === 1, 'the first wait');
    expect(steps.asked).toEqual([7000]);
    expect(receiver.records.map((r) => r.db_id)).toEqual([1, 2, 3]);

    await insertCdrRecords(store, fixtureRecords(4, 5));
    await saveCdrPushSettings(store, { interval_seconds: 2 }, clock.now());
    steps.wake();
    await waitFor(() => steps.asked.length === 2, 'the second wait');
    expect(steps.asked).toEqual([7000, 2000]);
    expect(receiver.records.map((r) => r.db_id)).toEqual([1, 2, 3, 4, 5]);

    await saveCdrPushSettings(store, { enabled: false }, clock.now());
    steps.wake();
    await waitFor(() => steps.asked.length === 3, 'the third wait');
    expect(steps.asked[2]).toBe(2000);
    await job.stop();
    expect(runs.map((r) => [r.outcome, r.acknowledged])).toEqual([
      ['drained', 3],
      ['drained', 2],
    ]);
    expect(logger.lines.join('\n')).not.toContain('job-key-77');
  });
});

describe.runIf(available('postgres'))('CDR push on one PostgreSQL database shared by two instances', () => {
  let tdb: TestDatabase;
  let stores: Store[];
  let receiver: CdrReceiver;
  beforeEach(async () => {
    tdb = await createTestDatabase('postgres');
    stores = [
      await openStore({ db: tdb.url }),
      await openStore({ db: tdb.url }),
      await openStore({ db: tdb.url }),
    ];
    receiver = await startCdrReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    for (const s of stores) await s.close();
    await tdb.drop();
  });

  test('with concurrent inserters, one instance delivers every record once, and the other takes over when it stops', async () => {
    const [a, b, writer] = stores as [Store, Store, Store];
    await saveCdrPushSettings(
      writer,
      { enabled: true, url: receiver.url, send_history: true, fields: ['db_id'], interval_seconds: 1 },
      Date.now(),
    );
    const quick: Sleep = (ms, signal) =>
      new Promise((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, Math.min(ms, 20));
        signal.addEventListener('abort', done, { once: true });
      });
    const delivered = { a: 0, b: 0 };
    const jobA = startCdrPushJob({
      store: a,
      sleep: quick,
      databaseUrl: tdb.url,
      onRun: (r) => {
        delivered.a += r.acknowledged;
      },
    });
    const jobB = startCdrPushJob({
      store: b,
      sleep: quick,
      databaseUrl: tdb.url,
      onRun: (r) => {
        delivered.b += r.acknowledged;
      },
    });
    try {
      // Two writers on their own pools, inserting at the same time as the job delivers.
      const insertAll = (s: Store, from: number) =>
        (async () => {
          for (let i = 0; i < 10; i++)
            await insertCdrRecords(s, fixtureRecords(from + i * 5, from + i * 5 + 4));
        })();
      await Promise.all([insertAll(writer, 1), insertAll(a, 1001)]);
      await waitFor(() => delivered.a + delivered.b >= 100, '100 records acknowledged');
      const ids = receiver.records.map((r) => r.db_id);
      expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(delivered.a === 0 || delivered.b === 0).toBe(true);

      const leader = delivered.a > 0 ? jobA : jobB;
      await leader.stop();
      await insertCdrRecords(writer, fixtureRecords(2001, 2010));
      await waitFor(() => delivered.a + delivered.b >= 110, 'the standby instance to take over');
      expect(receiver.records.map((r) => r.db_id)).toEqual(Array.from({ length: 110 }, (_, i) => i + 1));
      expect(delivered.a > 0 && delivered.b > 0).toBe(true);
    } finally {
      await jobA.stop();
      await jobB.stop();
    }
  });
});
