import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  HttpSender,
  readPushState,
  runDelivery,
  saveCdrPushSettings,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { cdrRowOf, insertCdrRecords } from '../../../src/cdr/record-store.js';
import { TimeFormatter } from '../../../src/cdr/wire-record.js';
import { openStore, type Store, withWriteLock } from '../../../src/store/index.js';
import { fixtureRecord, fixtureRecords } from '../../support/cdr-fixtures.js';
import { available, createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { manualClock, waitFor } from './support/push-support.js';

describe.runIf(available('postgres'))('CDR push with out-of-order commit attempts on PostgreSQL', () => {
  let tdb: TestDatabase;
  let slow: Store;
  let fast: Store;
  let job: Store;
  let receiver: CdrReceiver;
  beforeEach(async () => {
    tdb = await createTestDatabase('postgres');
    [slow, fast, job] = [
      await openStore({ db: tdb.url }),
      await openStore({ db: tdb.url }),
      await openStore({ db: tdb.url }),
    ];
    receiver = await startCdrReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    for (const s of [slow, fast, job]) await s.close();
    await tdb.drop();
  });

  test('a later insert waits for an earlier uncommitted one, and the job never skips the earlier id', async () => {
    const clock = manualClock();
    const sender = new HttpSender();
    const run = () => runDelivery({ store: job, sender, time: new TimeFormatter(), clock });
    try {
      await saveCdrPushSettings(
        job,
        { enabled: true, url: receiver.url, send_history: true, fields: ['db_id', 'call_id'] },
        clock.now(),
      );
      await insertCdrRecords(job, fixtureRecords(1, 3));
      expect((await run()).acknowledged).toBe(3);

      // The slow writer takes db_id 4 and does not commit yet.
      let commitSlow = () => {};
      const slowGate = new Promise<void>((done) => {
        commitSlow = done;
      });
      let slowHasId = () => {};
      const slowStarted = new Promise<void>((done) => {
        slowHasId = done;
      });
      const slowInsert = withWriteLock(slow, 'cdr', async (trx) => {
        await trx
          .insertInto('cdr')
          .values(cdrRowOf(fixtureRecord(4), 4, 0))
          .execute();
        slowHasId();
        await slowGate;
      });
      await slowStarted;

      // The later writer tries to commit a newer record: it must wait on the write lock.
      let fastDone = false;
      const fastInsert = insertCdrRecords(fast, [fixtureRecord(5)]).then((r) => {
        fastDone = true;
        return r;
      });
      await waitFor(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(job.db);
        return (rows[0]?.n ?? 0) === 1;
      }, 'the later insert to wait on the lock');
      expect(fastDone).toBe(false);

      // A run now sees nothing new and keeps its cursor at 3.
      expect(await run()).toEqual({ outcome: 'drained', acknowledged: 0, parked: 0, requests: 0 });
      expect((await readPushState(job.db)).ackedDbId).toBe(3);

      commitSlow();
      await slowInsert;
      expect(await fastInsert).toMatchObject({ inserted: 1, firstDbId: 5 });
      expect((await run()).acknowledged).toBe(2);
      expect(receiver.records).toEqual(
        [1, 2, 3, 4, 5].map((i) => ({ db_id: i, call_id: fixtureRecord(i).uniqueid })),
      );
    } finally {
      sender.close();
    }
  });
});
