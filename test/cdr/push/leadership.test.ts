import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ADVISORY_LOCK_KEY, createDeliveryLeadership } from '../../../src/cdr/push/delivery-leadership.js';
import {
  HttpSender,
  runDelivery,
  saveCdrPushSettings,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { TimeFormatter } from '../../../src/cdr/wire-record.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { available, createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { manualClock, waitFor } from './support/push-support.js';

describe('CDR push leadership on sqlite (lease)', () => {
  let tdb: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    tdb = await createTestDatabase('sqlite');
    store = await openStore({ db: tdb.url });
  });
  afterEach(async () => {
    await store.close();
    await tdb.drop();
  });

  test('one holder at a time; a lease not renewed expires and is taken over', async () => {
    const clock = manualClock();
    const a = createDeliveryLeadership(store, clock, { leaseTtlMs: 30_000 });
    const b = createDeliveryLeadership(store, clock, { leaseTtlMs: 30_000 });
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    clock.advance(29_000);
    expect(await a.acquire()).toBe(true); // renewed until +59 s
    clock.advance(29_000);
    expect(await b.acquire()).toBe(false);
    clock.advance(2_000);
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    await b.release();
    expect(await a.acquire()).toBe(true);
  });

  test('only the lease holder can move the cursor', async () => {
    const clock = manualClock();
    await store.db.updateTable('cdr_push_state').set({ acked_db_id: 0 }).execute();
    const a = createDeliveryLeadership(store, clock, { leaseTtlMs: 1000 });
    const b = createDeliveryLeadership(store, clock, { leaseTtlMs: 1000 });
    expect(await a.acquire()).toBe(true);
    expect(await b.advance({ generation: 0, from: 0 }, 5, clock.now())).toBe(false);
    expect(await a.advance({ generation: 0, from: 0 }, 5, clock.now())).toBe(true);
    clock.advance(1001);
    expect(await b.acquire()).toBe(true);
    expect(await a.advance({ generation: 0, from: 5 }, 9, clock.now())).toBe(false);
    expect(
      (await store.db.selectFrom('cdr_push_state').select('acked_db_id').executeTakeFirstOrThrow())
        .acked_db_id,
    ).toBe(5);
  });

  test('a run renews its lease while a slow receiver stretches one chunk past the lease length', async () => {
    const clock = manualClock();
    const a = createDeliveryLeadership(store, clock, { leaseTtlMs: 30_000 });
    const b = createDeliveryLeadership(store, clock, { leaseTtlMs: 30_000 });
    let standbyWon = false;
    const receiver = await startCdrReceiver({
      beforeAnswer: async () => {
        clock.advance(20_000); // each answer takes "20 s"
        if (await b.acquire()) standbyWon = true;
      },
    });
    const sender = new HttpSender();
    try {
      await saveCdrPushSettings(store, { enabled: true, url: receiver.url, send_history: true }, clock.now());
      await insertCdrRecords(store, fixtureRecords(1, 6));
      expect(await a.acquire()).toBe(true);
      const result = await runDelivery({ store, sender, time: new TimeFormatter(), clock, leadership: a });
      expect(result).toEqual({ outcome: 'drained', acknowledged: 6, parked: 0, requests: 6 });
      expect(standbyWon).toBe(false);
    } finally {
      sender.close();
      await receiver.close();
    }
  });

  test('a lease whose owner process on this host is gone is taken over at once', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const clock = manualClock();
    await store.db
      .updateTable('cdr_push_state')
      .set({ lease_owner: `${hostname()}:${dead}:deadbeef`, lease_expires_ms: clock.now() + 60_000 })
      .execute();
    expect(await createDeliveryLeadership(store, clock).acquire()).toBe(true);
    await store.db
      .updateTable('cdr_push_state')
      .set({ lease_owner: `other-host:${dead}:deadbeef`, lease_expires_ms: clock.now() + 60_000 })
      .execute();
    expect(await createDeliveryLeadership(store, clock).acquire()).toBe(false);
  });
});

describe.runIf(available('postgres'))('CDR push leadership on postgres (advisory lock)', () => {
  let tdb: TestDatabase;
  let stores: Store[];
  beforeEach(async () => {
    tdb = await createTestDatabase('postgres');
    stores = [await openStore({ db: tdb.url }), await openStore({ db: tdb.url })];
  });
  afterEach(async () => {
    for (const s of stores) await s.close().catch(() => {});
    await tdb.drop();
  });

  // Sessions of this test database holding the delivery lock.
  async function holders(store: Store): Promise<number[]> {
    const { rows } = await sql<{
      pid: number;
    }>`select l.pid from pg_locks l join pg_database d on d.oid = l.database
      where l.locktype = 'advisory' and l.objid = ${ADVISORY_LOCK_KEY} and l.granted and d.datname = current_database()`.execute(
      store.db,
    );
    return rows.map((r) => r.pid);
  }

  test('only one instance holds the lock; it passes on release and when the holder dies', async () => {
    const [s1, s2] = stores as [Store, Store];
    const clock = manualClock();
    const a = createDeliveryLeadership(s1, clock, { databaseUrl: tdb.url });
    const b = createDeliveryLeadership(s2, clock, { databaseUrl: tdb.url });
    expect(await a.acquire()).toBe(true);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await holders(s1)).toHaveLength(1);
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    // The holder's connection dies (as when its process is killed): the server drops the lock.
    const [pid] = await holders(s1);
    await sql`select pg_terminate_backend(${pid})`.execute(s1.db);
    await waitFor(async () => (await holders(s1)).length === 0, 'the lock to go with its session');
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    await a.release();
    await b.release();
  });

  test('only the lock holder can move the cursor', async () => {
    const [s1, s2] = stores as [Store, Store];
    await s1.db.updateTable('cdr_push_state').set({ acked_db_id: 0 }).execute();
    const a = createDeliveryLeadership(s1, manualClock(), { databaseUrl: tdb.url });
    const b = createDeliveryLeadership(s2, manualClock(), { databaseUrl: tdb.url });
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await b.advance({ generation: 0, from: 0 }, 5, 1)).toBe(false);
    expect(await a.advance({ generation: 0, from: 0 }, 5, 1)).toBe(true);
    // Committed and visible to other sessions at once.
    expect(
      (await s2.db.selectFrom('cdr_push_state').select('acked_db_id').executeTakeFirstOrThrow()).acked_db_id,
    ).toBe(5);
    await a.release();
    expect(await a.advance({ generation: 0, from: 5 }, 6, 1)).toBe(false);
  });

  test('a released lock is gone from the server at once', async () => {
    const [s1] = stores as [Store, Store];
    const a = createDeliveryLeadership(s1, manualClock(), { databaseUrl: tdb.url });
    expect(await a.acquire()).toBe(true);
    expect(await holders(s1)).toHaveLength(1);
    await a.release();
    expect(await holders(s1)).toEqual([]);
  });
});
