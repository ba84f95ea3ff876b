// The CDR table poller against a real MariaDB and a real PostgreSQL holding a FreePBX-style cdr
// table, storing into SQLite and PostgreSQL: rows sharing a calldate second across page ends, rows
// inserted while it polls, a transaction committed late, a restart, NULLs, an id column.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PollTimers, realTimers } from '../../../src/cdr/ingest/live/poll-timers.js';
import { SqlPoller } from '../../../src/cdr/ingest/live/sql-poller.js';
import { parseSqlSourceSpec } from '../../../src/cdr/ingest/live/sql-source-spec.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import type { Store } from '../../../src/store/index.js';
import {
  available,
  createMariaDatabase,
  createTestDatabase,
  openTestStore,
  storeKinds,
  type TestDatabase,
} from '../../support/databases.js';
import { CAPTURE_DIR } from './support/capture.js';

/** The capture's 28 calls as cdr table rows (Master-full.csv has linkedid and sequence). */
const CALLS = (parse(readFileSync(resolve(CAPTURE_DIR, 'Master-full.csv'))) as string[][]).map((f) => ({
  calldate: f[9] as string,
  clid: f[4] as string,
  src: f[1] as string,
  dst: f[2] as string,
  dcontext: f[3] as string,
  channel: f[5] as string,
  dstchannel: f[6] as string,
  lastapp: f[7] as string,
  lastdata: f[8] as string,
  duration: Number(f[12]),
  billsec: Number(f[13]),
  disposition: f[14] as string | null,
  amaflags: 3,
  accountcode: f[0] as string,
  uniqueid: f[16] as string,
  userfield: f[17] as string,
  did: '',
  recordingfile: '',
  cnum: f[1] as string,
  cnam: '',
  linkedid: f[19] as string,
  peeraccount: f[18] as string,
  sequence: Number(f[20]),
}));
type Call = (typeof CALLS)[number];
const COLUMNS = Object.keys(CALLS[0] as Call) as Array<keyof Call>;

/** A connection to the source database that can hold a transaction open. */
interface SourceDb {
  url: string;
  exec(sql: string, args?: unknown[]): Promise<void>;
  /** Inserts calls; `conn` is this connection (autocommit unless a transaction is open). */
  insert(calls: Call[]): Promise<void>;
  /** A second connection. */
  other(): Promise<SourceDb>;
  close(): Promise<void>;
}

const TABLE_DDL = (kind: 'mariadb' | 'postgres', withId: boolean) => {
  const text = 'varchar(255)';
  const time = kind === 'mariadb' ? 'datetime' : 'timestamp';
  const id = withId
    ? kind === 'mariadb'
      ? 'id int AUTO_INCREMENT PRIMARY KEY, '
      : 'id serial PRIMARY KEY, '
    : '';
  // FreePBX's asteriskcdrdb.cdr, NULLs allowed so a bad row can be written.
  return `CREATE TABLE cdr (${id}calldate ${time} NOT NULL, clid ${text}, src ${text}, dst ${text},
    dcontext ${text}, channel ${text}, dstchannel ${text}, lastapp ${text}, lastdata ${text},
    duration int, billsec int, disposition ${text}, amaflags int, accountcode ${text},
    uniqueid ${text}, userfield ${text}, did ${text}, recordingfile ${text}, cnum ${text},
    cnam ${text}, outbound_cnum ${text}, linkedid ${text}, peeraccount ${text}, sequence int)`;
};

async function mariaConnect(url: string): Promise<SourceDb> {
  const c = await mysql.createConnection({ uri: url });
  c.on('error', () => {}); // the reconnect test cuts this connection too
  return {
    url,
    exec: async (sql, args) => {
      await c.query(sql, args);
    },
    insert: async (calls) => {
      for (const call of calls) {
        await c.query(
          `INSERT INTO cdr (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
          [...COLUMNS.map((k) => call[k])],
        );
      }
    },
    other: () => mariaConnect(url),
    close: () => c.end(),
  };
}

async function pgConnect(url: string): Promise<SourceDb> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {}); // the reconnect test cuts this connection too
  await c.connect();
  return {
    url,
    exec: async (sql, args) => {
      await c.query(sql, args);
    },
    insert: async (calls) => {
      for (const call of calls) {
        await c.query(
          `INSERT INTO cdr (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
          COLUMNS.map((k) => call[k]),
        );
      }
    },
    other: () => pgConnect(url),
    close: () => c.end(),
  };
}

const SOURCES = (['mariadb', 'postgres'] as const).filter((k) => available(k));
if (SOURCES.length < 2)
  console.warn(
    `CDR table tests skipped for: ${['mariadb', 'postgres'].filter((k) => !SOURCES.includes(k as never)).join(', ')}`,
  );

const cases = SOURCES.flatMap((source) => storeKinds().map((store) => [source, store] as const));

async function identities(store: Store): Promise<string[]> {
  return (await listCdrRecordsAfter(store, 0, 10_000)).map((r) => `${r.uniqueid}|${r.sequence}`).sort();
}
const expectedIds = (calls: Call[]) => calls.map((c) => `${c.uniqueid}|${c.sequence}`).sort();
const noTimers = { setTimeout: () => 0, clearTimeout: () => {} };

describe.each(cases)('CDR table poller: %s table into a %s store', (sourceKind, storeKind) => {
  let sourceDb: TestDatabase;
  beforeAll(async () => {
    sourceDb = sourceKind === 'mariadb' ? await createMariaDatabase() : await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await sourceDb?.drop();
  });

  async function freshTable(withId: boolean): Promise<SourceDb> {
    const db = sourceKind === 'mariadb' ? await mariaConnect(sourceDb.url) : await pgConnect(sourceDb.url);
    await db.exec('DROP TABLE IF EXISTS cdr');
    await db.exec(TABLE_DDL(sourceKind, withId));
    await db.exec('CREATE INDEX cdr_calldate ON cdr (calldate)');
    return db;
  }

  const poller = (store: Store, url: string, extra = '', timers: PollTimers = noTimers) =>
    new SqlPoller({
      spec: parseSqlSourceSpec(`${url}${url.includes('?') ? '&' : '?'}poll=20${extra}`, 'cdr'),
      store,
      timers,
      pageSize: 2,
    });

  test('stores every row exactly once: ties within a second across pages, a late commit, rows while it runs, a restart', async () => {
    const db = await freshTable(false);
    const t = await openTestStore(storeKind);
    try {
      // five calls in one calldate second, more than a page (2) holds
      const same = CALLS.slice(0, 5).map((c) => ({ ...c, calldate: '2026-11-22 04:47:41' }));
      await db.insert(same);
      let p = poller(t.store, db.url);
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds(same));

      // a transaction inserts a call and stays open while later calls commit and a poll runs
      const late = await db.other();
      await late.exec(sourceKind === 'mariadb' ? 'START TRANSACTION' : 'BEGIN');
      await late.insert(CALLS.slice(5, 6));
      await db.insert(CALLS.slice(6, 12));
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds([...same, ...CALLS.slice(6, 12)]));
      await late.exec('COMMIT');
      await late.close();
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds([...same, ...CALLS.slice(5, 12)]));

      // running on its own timer while calls are inserted one by one
      await p.stop();
      p = poller(t.store, db.url, '', realTimers);
      p.start();
      for (const c of CALLS.slice(12, 20)) await db.insert([c]);
      const want = expectedIds([...same, ...CALLS.slice(5, 20)]);
      for (let i = 0; i < 500 && (await identities(t.store)).length < want.length; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await p.stop();
      expect(await identities(t.store)).toEqual(want);

      // a restart re-reads the window and stores nothing twice; new rows still arrive
      await db.insert(CALLS.slice(20));
      p = poller(t.store, db.url);
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds([...same, ...CALLS.slice(5)]));
      expect(p.status()).toMatchObject({ state: 'polling', recordsStored: CALLS.length - 20, rejected: 0 });
      await p.stop();
    } finally {
      await db.close();
      await t.close();
    }
  });

  test('reports a row with NULLs by where it is and stores the others', async () => {
    const db = await freshTable(true);
    const t = await openTestStore(storeKind);
    try {
      const broken = { ...(CALLS[1] as Call), disposition: null };
      await db.insert([CALLS[0] as Call, broken, CALLS[2] as Call]);
      const p = poller(t.store, db.url, '&table=cdr');
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds([CALLS[0] as Call, CALLS[2] as Call]));
      const s = p.status();
      expect(s).toMatchObject({ state: 'polling', recordsStored: 2, rejected: 1 });
      expect(s.lastError?.message).toBe('table cdr row id=2: skipped: column disposition is NULL');
      // reported once, not on every poll
      await p.pollNow();
      expect(p.status().rejected).toBe(1);
      await p.stop();
    } finally {
      await db.close();
      await t.close();
    }
  });

  test('reconnects by itself after its connection is killed, losing nothing', async () => {
    const db = await freshTable(false);
    const t = await openTestStore(storeKind);
    try {
      await db.insert(CALLS.slice(0, 3));
      const p = poller(t.store, db.url);
      await p.pollNow();
      if (sourceKind === 'mariadb') {
        const c = await mysql.createConnection({ uri: db.url });
        const [rows] = await c.query<mysql.RowDataPacket[]>(
          'SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()',
        );
        for (const r of rows) await c.query(`KILL ${Number(r.id)}`).catch(() => {});
        await c.end();
      } else {
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        await c.end();
      }
      const again =
        sourceKind === 'mariadb' ? await mariaConnect(sourceDb.url) : await pgConnect(sourceDb.url);
      await again.insert(CALLS.slice(3, 6));
      await p.pollNow();
      expect(p.status().state).toBe('error');
      expect(p.status().lastError?.message).toMatch(/^cdr: /);
      await p.pollNow();
      expect(await identities(t.store)).toEqual(expectedIds(CALLS.slice(0, 6)));
      expect(p.status()).toMatchObject({ state: 'polling', recordsStored: 6, duplicates: 0 });
      await p.stop();
      await again.close();
    } finally {
      await db.close().catch(() => {});
      await t.close();
    }
  });

  test.runIf(sourceKind === 'postgres')(
    'reads a timestamptz calldate as the instant it is, whatever tz says',
    async () => {
      const db = await freshTable(false);
      const t = await openTestStore(storeKind);
      try {
        await db.exec(
          "ALTER TABLE cdr ALTER COLUMN calldate TYPE timestamptz USING calldate AT TIME ZONE 'UTC'",
        );
        await db.insert(CALLS.slice(0, 2).map((c) => ({ ...c, calldate: `${c.calldate}+00` })));
        const p = poller(t.store, db.url, '&tz=Europe/Berlin');
        await p.pollNow();
        const rows = await listCdrRecordsAfter(t.store, 0, 10);
        expect(rows.map((r) => r.start_ts).sort()).toEqual(
          CALLS.slice(0, 2)
            .map((c) => Date.parse(`${c.calldate.replace(' ', 'T')}Z`) / 1000)
            .sort(),
        );
        await p.stop();
      } finally {
        await db.close();
        await t.close();
      }
    },
  );

  test('reads a wall-clock calldate in the zone tz names', async () => {
    const db = await freshTable(false);
    const t = await openTestStore(storeKind);
    try {
      await db.insert(CALLS.slice(0, 1));
      const p = poller(t.store, db.url, '&tz=Europe/Berlin');
      await p.pollNow();
      const rows = await listCdrRecordsAfter(t.store, 0, 10);
      // 04:47 in Berlin in November (CET, UTC+1) is 03:47 UTC
      expect(rows.map((r) => r.start_ts)).toEqual([
        Date.parse(`${(CALLS[0] as Call).calldate.replace(' ', 'T')}Z`) / 1000 - 3600,
      ]);
      await p.stop();
    } finally {
      await db.close();
      await t.close();
    }
  });

  test('says what is wrong with a table that is not a CDR table, without the password', async () => {
    const db = await freshTable(false);
    const t = await openTestStore(storeKind);
    try {
      await db.exec('DROP TABLE cdr');
      const p = poller(t.store, db.url);
      await p.pollNow();
      expect(p.status()).toMatchObject({ state: 'error' });
      expect(p.status().lastError?.message).toBe('cdr: table cdr not found (or not readable)');
      await p.stop();
    } finally {
      await db.close();
      await t.close();
    }
  });
});
