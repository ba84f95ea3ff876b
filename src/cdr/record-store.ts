// CDR rows in the store. Inserts take the `cdr` write lock, skip identities already stored, and
// number new rows max(db_id)+1, +2, ...: db_id is therefore dense (1..N) and rows become visible
// in db_id order, even with several writers on one PostgreSQL database. Paging is then a range
// scan on the primary key (page 10,000 costs what page 1 does), and the push job may keep a plain
// "last acknowledged db_id" cursor without ever skipping a row that commits late.

import type { Statement } from 'better-sqlite3';
import type { Transaction } from 'kysely';
import type { CdrRow, Database, SqliteConnection, Store } from '../store/index.js';
import { withWriteLock } from '../store/index.js';
import type { NewCdrRecord } from './record.js';
import { WIRE_COLUMNS, type WireRow } from './wire-record.js';

/** What an insert did. */
export interface InsertResult {
  inserted: number;
  /** Records whose identity was already stored (or repeated within the batch). */
  duplicates: number;
  /** db_id of the first and last new row, or null when nothing was inserted. */
  firstDbId: number | null;
  lastDbId: number | null;
}

const CHUNK = 500;

/** The stored row of a record under a given db_id. */
export function cdrRowOf(r: NewCdrRecord, dbId: number, nowMs: number): CdrRow {
  return {
    db_id: dbId,
    identity: r.identity,
    uniqueid: r.uniqueid,
    linkedid: r.linkedid,
    sequence: r.sequence,
    accountcode: r.accountcode,
    clid: r.clid,
    src: r.src,
    dst: r.dst,
    dcontext: r.dcontext,
    channel: r.channel,
    dstchannel: r.dstchannel,
    lastapp: r.lastapp,
    lastdata: r.lastdata,
    start_ts: r.start,
    answer_ts: r.answer,
    end_ts: r.end,
    duration: r.duration,
    billsec: r.billsec,
    disposition: r.disposition,
    amaflags: r.amaflags,
    userfield: r.userfield,
    peeraccount: r.peeraccount,
    initial_destination: r.initialDestination,
    computed_destination: r.computedDestination,
    recording_url: r.recordingUrl,
    created_at_ms: nowMs,
  };
}

/** The cdr columns in the order of the SQLite fast path's statement (and of cdrValuesOf). */
const CDR_COLUMNS = [
  'db_id',
  'identity',
  'uniqueid',
  'linkedid',
  'sequence',
  'accountcode',
  'clid',
  'src',
  'dst',
  'dcontext',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'start_ts',
  'answer_ts',
  'end_ts',
  'duration',
  'billsec',
  'disposition',
  'amaflags',
  'userfield',
  'peeraccount',
  'initial_destination',
  'computed_destination',
  'recording_url',
  'created_at_ms',
] as const satisfies ReadonlyArray<keyof CdrRow>;

// The values of cdrRowOf in CDR_COLUMNS order, built directly: this runs once per imported row.
function cdrValuesOf(r: NewCdrRecord, dbId: number, nowMs: number): unknown[] {
  return [
    dbId,
    r.identity,
    r.uniqueid,
    r.linkedid,
    r.sequence,
    r.accountcode,
    r.clid,
    r.src,
    r.dst,
    r.dcontext,
    r.channel,
    r.dstchannel,
    r.lastapp,
    r.lastdata,
    r.start,
    r.answer,
    r.end,
    r.duration,
    r.billsec,
    r.disposition,
    r.amaflags,
    r.userfield,
    r.peeraccount,
    r.initialDestination,
    r.computedDestination,
    r.recordingUrl,
    nowMs,
  ];
}

const insertStatements = new WeakMap<SqliteConnection, Statement>();

/**
 * SQLite fast path: one cached prepared statement, a row at a time, duplicates skipped by the
 * unique identity (a skipped row takes no db_id, so ids stay dense). Runs on the connection the
 * surrounding Kysely transaction holds.
 */
function insertSqlite(
  sqlite: SqliteConnection,
  records: readonly NewCdrRecord[],
  first: number,
  nowMs: number,
): number {
  let stmt = insertStatements.get(sqlite);
  if (!stmt) {
    stmt = sqlite.prepare(
      `INSERT INTO cdr (${CDR_COLUMNS.join(', ')}) VALUES (${CDR_COLUMNS.map(() => '?').join(', ')})
       ON CONFLICT (identity) DO NOTHING`,
    );
    insertStatements.set(sqlite, stmt);
  }
  let next = first;
  for (const r of records) {
    if (stmt.run(cdrValuesOf(r, next, nowMs)).changes === 1) next++;
  }
  return next - first;
}

async function existingIdentities(trx: Transaction<Database>, identities: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < identities.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('cdr')
      .select('identity')
      .where('identity', 'in', identities.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.add(row.identity);
  }
  return found;
}

async function nextDbId(trx: Transaction<Database>): Promise<number> {
  const { max } = await trx
    .selectFrom('cdr')
    .select((eb) => eb.fn.max('db_id').as('max'))
    .executeTakeFirstOrThrow();
  return Number(max ?? 0) + 1;
}

/** Work done in the insert's transaction after the rows, e.g. a live source saving its read position. */
export type InTransaction = (trx: Transaction<Database>) => Promise<void>;

/**
 * Stores records not stored before, in one transaction; all or nothing. `also` runs in the same
 * transaction after the rows (it runs even when `records` is empty).
 */
export async function insertCdrRecords(
  store: Store,
  records: readonly NewCdrRecord[],
  nowMs: number = Date.now(),
  also?: InTransaction,
): Promise<InsertResult> {
  if (also) {
    return withWriteLock(store, 'cdr', async (trx) => {
      const result = await insertInTransaction(store, trx, records, nowMs);
      await also(trx);
      return result;
    });
  }
  if (records.length === 0) return { inserted: 0, duplicates: 0, firstDbId: null, lastDbId: null };
  return withWriteLock(store, 'cdr', (trx) => insertInTransaction(store, trx, records, nowMs));
}

async function insertInTransaction(
  store: Store,
  trx: Transaction<Database>,
  records: readonly NewCdrRecord[],
  nowMs: number,
): Promise<InsertResult> {
  if (records.length === 0) return { inserted: 0, duplicates: 0, firstDbId: null, lastDbId: null };
  if (store.sqlite) {
    const first = await nextDbId(trx);
    const inserted = insertSqlite(store.sqlite, records, first, nowMs);
    return {
      inserted,
      duplicates: records.length - inserted,
      firstDbId: inserted > 0 ? first : null,
      lastDbId: inserted > 0 ? first + inserted - 1 : null,
    };
  }
  const seen = await existingIdentities(
    trx,
    records.map((r) => r.identity),
  );
  const fresh: NewCdrRecord[] = [];
  for (const r of records) {
    if (seen.has(r.identity)) continue;
    seen.add(r.identity);
    fresh.push(r);
  }
  if (fresh.length === 0) return { inserted: 0, duplicates: records.length, firstDbId: null, lastDbId: null };
  const first = await nextDbId(trx);
  for (let i = 0; i < fresh.length; i += CHUNK) {
    const rows = fresh.slice(i, i + CHUNK).map((r, j) => cdrRowOf(r, first + i + j, nowMs));
    await trx.insertInto('cdr').values(rows).execute();
  }
  return {
    inserted: fresh.length,
    duplicates: records.length - fresh.length,
    firstDbId: first,
    lastDbId: first + fresh.length - 1,
  };
}

/** The number of stored records (db_id is dense, so this is max(db_id), an index lookup). */
export async function countCdrRecords(store: Store): Promise<number> {
  const { max } = await store.db
    .selectFrom('cdr')
    .select((eb) => eb.fn.max('db_id').as('max'))
    .executeTakeFirstOrThrow();
  return Number(max ?? 0);
}

/** Up to `limit` whole records with db_id greater than `afterDbId`, ascending. */
export async function listCdrRecordsAfter(store: Store, afterDbId: number, limit: number): Promise<CdrRow[]> {
  return store.db
    .selectFrom('cdr')
    .selectAll()
    .where('db_id', '>', afterDbId)
    .orderBy('db_id')
    .limit(limit)
    .execute();
}

const wireStatements = new WeakMap<SqliteConnection, Statement>();

/**
 * Up to `limit` records with db_id greater than `afterDbId`, ascending, with the columns of their
 * wire record (the push job and the pull API read nothing else). On SQLite, outside a transaction,
 * through a cached statement on the raw connection: the job reads its backlog a chunk at a time,
 * and Kysely's per-query work was most of the cost of a batch.
 */
export async function listWireRowsAfter(store: Store, afterDbId: number, limit: number): Promise<WireRow[]> {
  const sqlite = store.sqlite;
  if (sqlite && !sqlite.inTransaction) {
    let statement = wireStatements.get(sqlite);
    if (!statement) {
      statement = sqlite.prepare(
        `SELECT ${WIRE_COLUMNS.join(', ')} FROM cdr WHERE db_id > ? ORDER BY db_id LIMIT ?`,
      );
      wireStatements.set(sqlite, statement);
    }
    return statement.all(afterDbId, limit) as WireRow[];
  }
  return store.db
    .selectFrom('cdr')
    .select(WIRE_COLUMNS)
    .where('db_id', '>', afterDbId)
    .orderBy('db_id')
    .limit(limit)
    .execute();
}
