import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ADVISORY_LOCK_KEY } from '../../../src/cdr/push/delivery-leadership.js';
import { type CdrReceiver, saveCdrPushSettings, startCdrReceiver } from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { available, createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { waitFor } from './support/push-support.js';

describe.runIf(available('postgres'))('two `branchgate serve` processes on one PostgreSQL database', () => {
  let tdb: TestDatabase;
  let writers: Store[];
  let receiver: CdrReceiver;
  const dirs: string[] = [];
  const serves: ServeProcess[] = [];
  beforeEach(async () => {
    tdb = await createTestDatabase('postgres');
    writers = [await openStore({ db: tdb.url }), await openStore({ db: tdb.url })];
    receiver = await startCdrReceiver();
  });
  afterEach(async () => {
    for (const s of serves.splice(0)) await s.stop('SIGKILL');
    await receiver.close();
    for (const w of writers) await w.close();
    await tdb.drop();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test('deliver every record exactly once, in order, while two writers insert concurrently', async () => {
    const [w1, w2] = writers as [Store, Store];
    await saveCdrPushSettings(
      w1,
      { enabled: true, url: receiver.url, fields: ['db_id'], interval_seconds: 1, send_history: true },
      Date.now(),
    );
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'bg-push-two-'));
      dirs.push(dir);
      serves.push(
        await spawnServe(['--data-dir', dir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
          env: { BRANCHGATE_ADMIN_PASSWORD: 'two-serves-admin-pw' },
        }),
      );
    }
    const insertAll = async (s: Store, from: number) => {
      for (let i = 0; i < 20; i++) {
        await insertCdrRecords(s, fixtureRecords(from + i * 5, from + i * 5 + 4));
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await Promise.all([insertAll(w1, 1), insertAll(w2, 5001)]);
    await waitFor(() => receiver.records.length >= 200, '200 records at the receiver', 60_000);
    // One more interval: a second deliverer, if there were one, would have sent repeats by now.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.records.map((r) => r.db_id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(receiver.requests.every((q) => q.status === 200 && !q.repeat)).toBe(true);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks l
      join pg_database d on d.oid = l.database
      where l.locktype = 'advisory' and l.objid = ${ADVISORY_LOCK_KEY} and d.datname = current_database()`.execute(
      w1.db,
    );
    expect(rows[0]?.n).toBe(1);
  }, 90_000);
});
