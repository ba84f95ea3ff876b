import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  cdrRowOf,
  countCdrRecords,
  insertCdrRecords,
  listCdrRecordsAfter,
} from '../../src/cdr/record-store.js';
import { openStore, type Store } from '../../src/store/index.js';
import { fixtureRecord, fixtureRecords } from '../support/cdr-fixtures.js';
import { openTestStore, storeKinds, type TestStore } from '../support/databases.js';

describe.each(storeKinds())('CDR store on %s', (kind) => {
  let db: TestStore;
  let store: Store;
  beforeEach(async () => {
    db = await openTestStore(kind);
    store = db.store;
  });
  afterEach(async () => db.close());

  test('numbers new records densely from 1 and skips identities already stored', async () => {
    const first = await insertCdrRecords(store, fixtureRecords(1, 5));
    expect(first).toEqual({ inserted: 5, duplicates: 0, firstDbId: 1, lastDbId: 5 });
    const again = await insertCdrRecords(store, [...fixtureRecords(4, 8), fixtureRecord(8)]);
    expect(again).toEqual({ inserted: 3, duplicates: 3, firstDbId: 6, lastDbId: 8 });
    expect(await countCdrRecords(store)).toBe(8);
    const rows = await listCdrRecordsAfter(store, 0, 100);
    expect(rows.map((r) => [r.db_id, r.identity])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => [i, `fixture-${i}`]),
    );
  });

  test('keeps every column of a record as given, null answer included', async () => {
    const rec = fixtureRecord(3, {
      clid: '"Zoë Ünal" <4009>',
      answer: null,
      recordingUrl: 'https://r/x.wav',
    });
    await insertCdrRecords(store, [rec]);
    const [row] = await listCdrRecordsAfter(store, 0, 1);
    expect(row).toMatchObject({
      db_id: 1,
      uniqueid: rec.uniqueid,
      clid: '"Zoë Ünal" <4009>',
      answer_ts: null,
      start_ts: rec.start,
      end_ts: rec.end,
      recording_url: 'https://r/x.wav',
      sequence: 3,
    });
  });

  test('stores every column in its own place (each field a distinct value)', async () => {
    const rec = fixtureRecord(7, {
      accountcode: 'acct',
      clid: 'clid',
      src: 'src',
      dst: 'dst',
      dcontext: 'ctx',
      channel: 'chan',
      dstchannel: 'dchan',
      lastapp: 'app',
      lastdata: 'data',
      disposition: 'BUSY',
      amaflags: 'BILLING',
      userfield: 'uf',
      peeraccount: 'peer',
      initialDestination: 'init',
      computedDestination: 'comp',
      recordingUrl: 'rec',
      start: 100,
      answer: 101,
      end: 102,
      duration: 103,
      billsec: 104,
      sequence: 105,
    });
    await insertCdrRecords(store, [rec], 1234);
    expect(await listCdrRecordsAfter(store, 0, 1)).toEqual([cdrRowOf(rec, 1, 1234)]);
  });

  test('concurrent writers still get dense ids in commit order', async () => {
    // PostgreSQL: two pools, as two instances would have. SQLite: one process has one connection
    // (better-sqlite3 is synchronous, so a second in-process connection would wait on itself);
    // other processes serialise on the database write lock.
    const other = kind === 'postgres' ? await openStore({ db: db.url }) : store;
    try {
      const batches = Array.from({ length: 8 }, (_, b) => fixtureRecords(b * 50 + 1, b * 50 + 50));
      await Promise.all(batches.map((batch, b) => insertCdrRecords(b % 2 ? other : store, batch)));
      const rows = await listCdrRecordsAfter(store, 0, 1000);
      expect(rows.map((r) => r.db_id)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
      // Each batch was inserted under the lock in one transaction, so its ids are contiguous.
      for (const batch of batches) {
        const ids = rows.filter((r) => batch.some((x) => x.identity === r.identity)).map((r) => r.db_id);
        expect((ids.at(-1) as number) - (ids[0] as number)).toBe(49);
      }
    } finally {
      if (other !== store) await other.close();
    }
  });

  test('an insert that fails part-way leaves nothing behind', async () => {
    await insertCdrRecords(store, fixtureRecords(1, 2));
    const bad = fixtureRecord(3, { src: null as unknown as string });
    await expect(insertCdrRecords(store, [fixtureRecord(4), bad])).rejects.toThrow();
    expect(await countCdrRecords(store)).toBe(2);
    expect(await insertCdrRecords(store, [fixtureRecord(4)])).toMatchObject({ firstDbId: 3 });
  });
});
