// Upgrading a store written by the release before push destinations: its one push setup becomes
// destination 1 with the same cursor, generation, log and parked records, and the next run sends
// exactly the records after the cursor (nothing resent, nothing skipped). Both stores.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  createDestination,
  HttpSender,
  listDeliveryLog,
  listDestinations,
  listParked,
  readPushState,
  runDelivery,
  startCdrReceiver,
} from '../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { TimeFormatter } from '../../src/cdr/wire-record.js';
import { openStore, type Store } from '../../src/store/index.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';

/** The last migration of the release before destinations. */
const PREVIOUS_RELEASE = '20261125-20-push-parked';

describe.each(storeKinds())('the push destinations migration on %s', (kind) => {
  let tdb: TestDatabase;
  let receiver: CdrReceiver;
  const stores: Store[] = [];
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    receiver = await startCdrReceiver({ apiKey: 'old-release-key' });
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await receiver.close();
    await tdb.drop();
  });

  test('the old setup becomes destination 1 with the same cursor; the next run sends only what came after', async () => {
    const old = await openStore({ db: tdb.url, migrateTo: PREVIOUS_RELEASE });
    stores.push(old);
    const columns = (await old.db.introspection.getTables()).find((t) => t.name === 'cdr_push_log')?.columns;
    expect(columns?.map((c) => c.name)).not.toContain('destination_id');
    // As that release stored them: settings JSON without `name`, the cursor at 5 in generation 2,
    // two log rows, record 3 parked.
    await insertCdrRecords(old, fixtureRecords(1, 8));
    const stored = {
      enabled: true,
      url: receiver.url,
      method: 'POST',
      api_key: 'old-release-key',
      bearer_token: '',
      username: '',
      password: '',
      fields: ['db_id', 'call_id'],
      interval_seconds: 30,
      batch_size: 1,
      send_history: false,
      alert_after_seconds: 600,
      signing_secret: '',
      previous_signing_secret: '',
      poison_policy: 'park',
      poison_after: 3,
    };
    await old.db
      .insertInto('settings')
      .values({ key: 'cdr_push', value: JSON.stringify(stored), updated_at_ms: 1 })
      .execute();
    await old.db
      .updateTable('cdr_push_state')
      .set({ acked_db_id: 5, generation: 2, last_success_ms: 1_700_000_000_000 })
      .where('id', '=', 1)
      .execute();
    for (const [first, error] of [
      [4, ''],
      [5, ''],
    ] as const) {
      await old.db
        .insertInto('cdr_push_log')
        .values({
          at_ms: 1_700_000_000_000 + first,
          kind: 'delivery',
          first_db_id: first,
          last_db_id: first,
          records: 1,
          status: 200,
          latency_ms: 3,
          error,
        })
        .execute();
    }
    await old.db
      .insertInto('cdr_push_parked')
      .values({
        destination_id: 1,
        db_id: 3,
        parked_at_ms: 1_700_000_000_000,
        status: 400,
        error: 'HTTP 400',
      })
      .execute();
    await old.close();
    stores.pop();

    const store = await openStore({ db: tdb.url });
    stores.push(store);
    const destinations = await listDestinations(store);
    expect(destinations).toEqual([{ id: 1, settings: { name: '', ...stored } }]);
    const state = await readPushState(store.db, 1);
    expect(state).toMatchObject({ ackedDbId: 5, generation: 2, lastSuccessMs: 1_700_000_000_000 });
    expect((await listDeliveryLog(store, 10, 1)).map((e) => e.firstDbId)).toEqual([5, 4]);
    expect((await listParked(store, 10, 1)).map((p) => p.dbId)).toEqual([3]);

    const sender = new HttpSender({ timeoutMs: 5000 });
    try {
      const run = await runDelivery({
        store,
        sender,
        time: new TimeFormatter('UTC'),
        clock: { now: Date.now },
      });
      expect(run).toMatchObject({ outcome: 'drained', acknowledged: 3 });
    } finally {
      sender.close();
    }
    expect(receiver.records.map((r) => r.db_id)).toEqual([6, 7, 8]);
    expect((await readPushState(store.db, 1)).ackedDbId).toBe(8);

    // A new destination starts after the newest record, with its own cursor; destination 1 is unmoved.
    const added = await createDestination(
      store,
      { name: 'billing', url: receiver.url, enabled: true },
      Date.now(),
    );
    expect(added.id).toBe(2);
    expect((await readPushState(store.db, 2)).ackedDbId).toBe(8);
    expect(await listDeliveryLog(store, 10, 2)).toEqual([]);
    expect((await readPushState(store.db, 1)).generation).toBe(2);
  });
});
