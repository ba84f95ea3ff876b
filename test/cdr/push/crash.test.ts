import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type CdrReceiver,
  listDeliveryLog,
  type ReceivedRequest,
  readPushState,
  saveCdrPushSettings,
  seededRandom,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { waitFor } from './support/push-support.js';

interface Arrival {
  key: string;
  ids: number[];
}

describe.each(storeKinds())('CDR push through faults and a crash of `branchgate serve` on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let dataDir: string;
  const receivers: CdrReceiver[] = [];
  const serves: ServeProcess[] = [];

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    dataDir = mkdtempSync(join(tmpdir(), 'bg-push-crash-'));
  });
  afterEach(async () => {
    for (const s of serves.splice(0)) await s.stop('SIGKILL');
    for (const r of receivers.splice(0)) await r.close();
    await store.close();
    await tdb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const serve = async () => {
    const s = await spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'crash-test-admin-pw' },
    });
    serves.push(s);
    return s;
  };

  test('every record arrives, in order of first arrival, at most twice, repeats keeping their Idempotency-Key', async () => {
    const random = seededRandom(20261122);
    const arrivals: Arrival[] = [];
    const refused: ReceivedRequest[] = [];
    let hold: ((r: ReceivedRequest) => Promise<void>) | undefined;
    const startReceiver = async (port: number) => {
      const r = await startCdrReceiver({
        port,
        apiKey: 'crash-key',
        failRate: 0.3,
        random,
        onRequest: (q) => {
          if (q.status !== 200) refused.push(q);
        },
        beforeAnswer: async (q) => {
          arrivals.push({ key: q.idempotencyKey, ids: q.records.map((x) => Number(x.db_id)) });
          if (hold) await hold(q);
        },
      });
      receivers.push(r);
      return r;
    };
    const arrivedIds = () => new Set(arrivals.flatMap((a) => a.ids));

    // 1. The receiver fails 30% of requests at random.
    const first = await startReceiver(0);
    await saveCdrPushSettings(
      store,
      {
        enabled: true,
        url: first.url,
        api_key: 'crash-key',
        fields: ['db_id', 'call_id'],
        interval_seconds: 1,
        send_history: true,
      },
      Date.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 10));
    const serveA = await serve();
    await waitFor(() => arrivedIds().size === 10, 'records 1..10 through random failures', 60_000);
    expect(refused.filter((q) => q.status === 500).length).toBeGreaterThan(0);

    // 2. The receiver is down for 5 s while records keep coming.
    await first.close();
    const downSince = Date.now();
    await insertCdrRecords(store, fixtureRecords(11, 15));
    await waitFor(
      async () =>
        (await listDeliveryLog(store, 50)).filter((e) => e.error.startsWith('ECONNREFUSED')).length >= 2,
      'two refused connections in the delivery log',
    );
    expect((await readPushState(store.db)).failingSinceMs).not.toBeNull();
    await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (Date.now() - downSince))));

    // 3. Back up; the server is killed while the request for db_id 20 is in flight, then restarted.
    let killed = false;
    hold = async (q) => {
      if (!killed && q.records.some((x) => x.db_id === 20)) {
        killed = true;
        await serveA.stop('SIGKILL');
      }
    };
    await startReceiver(first.port);
    await insertCdrRecords(store, fixtureRecords(16, 25));
    await waitFor(() => killed, 'the request for db_id 20', 60_000);
    const serveB = await serve();
    await waitFor(() => arrivedIds().size === 25, 'records 1..25 after the restart', 60_000);
    await waitFor(async () => (await readPushState(store.db)).ackedDbId === 25, 'the cursor at 25');
    expect(await serveB.stop('SIGTERM')).toBe(0);

    const firstArrival: number[] = [];
    const count = new Map<number, number>();
    for (const a of arrivals) {
      expect(a.ids).toHaveLength(1);
      const id = a.ids[0] as number;
      expect(a.key).toBe(`cdr-${id}`);
      if (!count.has(id)) firstArrival.push(id);
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    expect(firstArrival).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // Only the request in flight at the crash came twice.
    expect([...count].filter(([, n]) => n > 1)).toEqual([[20, 2]]);
  }, 120_000);
});
