// CDR import throughput: a 1,000,000-line Master.csv (the real capture's rows, uniqueids varied)
// imported end to end into a fresh SQLite store, against two baselines in the same run: csv-parse
// alone reading the file, and a raw better-sqlite3 prepared insert of the same number of rows. It also
// runs the same import into a raw better-sqlite3 sink, to tell the import's cost from the store's.
// Usage: node bin/run-ts.js bench/cdr-import.ts [lines]   (exits 1 below the 50,000 records/s target;
// BENCH_THREADS=1 checks the file in one thread, as the CLI does below 32 MiB)
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { parse } from 'csv-parse';
import { importCdrFile } from '../src/cdr/ingest/index.js';
import type { NewCdrRecord } from '../src/cdr/record.js';
import { insertCdrRecords } from '../src/cdr/record-store.js';
import { openStore } from '../src/store/index.js';

const LINES = Number(process.argv[2] ?? 1_000_000);
const CAPTURE = new URL('../../shared/corpora/cdr/asterisk-22/Master.csv', import.meta.url);
const TARGET = 50_000;
// What `branchgate cdr import` picks for a file of this size (src/cli/cdr.ts): 2 threads from 32 MiB.
const THREADS = Number(process.env.BENCH_THREADS ?? Math.min(2, availableParallelism()));

/**
 * The capture's 28 rows repeated as one call after another: copy k moves every time and every
 * uniqueid's epoch by k * 62 s (the capture spans 62 s), so times increase through the file as in
 * a real Master.csv and each copy is new.
 */
function generate(path: string): void {
  const rows = readFileSync(CAPTURE, 'utf8').trim().split('\n');
  const shift = (time: string, by: number): string =>
    new Date(Date.parse(`${time.replace(' ', 'T')}Z`) + by * 1000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const by = Math.floor(i / rows.length) * 62;
    const row = rows[i % rows.length] as string;
    out.push(
      row
        .replace(/"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)"/g, (_m, time: string) => `"${shift(time, by)}"`)
        .replace(/"(\d{10})\.(\d+)","([^"]*)"$/, (_m, epoch: string, n: string, userfield: string) => {
          return `"${Number(epoch) + by}.${n}","${userfield}"`;
        }),
    );
  }
  writeFileSync(path, `${out.join('\n')}\n`);
}

async function csvParseOnly(path: string): Promise<number> {
  let n = 0;
  const parser = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(parse({ relax_column_count: true }));
  for await (const _record of parser) n++;
  return n;
}

/** The same import into a raw better-sqlite3 sink (one prepared insert, ON CONFLICT DO NOTHING). */
async function importIntoRawSqlite(csv: string, file: string): Promise<number> {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const cols = Object.keys(SAMPLE_RECORD);
  db.exec(`create table cdr (db_id integer primary key, ${cols.join(', ')}, unique (identity))`);
  const insert = db.prepare(
    `insert into cdr (${cols.join(', ')}) values (${cols.map((c) => `@${c}`).join(', ')}) on conflict (identity) do nothing`,
  );
  const insertAll = db.transaction((records: NewCdrRecord[]) => {
    let inserted = 0;
    for (const r of records) inserted += insert.run(r).changes;
    return inserted;
  });
  const summary = await importCdrFile(
    csv,
    async (records) => {
      const inserted = insertAll(records);
      return { inserted, duplicates: records.length - inserted };
    },
    { threads: THREADS },
  );
  db.close();
  return summary.inserted;
}

/** Baseline: rows of the same width and identity shape (start:sha256:hex, as Master.csv rows get). */
function rawSqliteInsert(file: string, rows: number): void {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const cols = Array.from({ length: 26 }, (_v, i) => `c${i}`);
  db.exec(`create table t (id integer primary key, identity text not null unique, ${cols.join(', ')})`);
  const insert = db.prepare(
    `insert into t (identity, ${cols.join(', ')}) values (?, ${cols.map(() => '?').join(', ')}) on conflict (identity) do nothing`,
  );
  const tx = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const hash = createHash('sha256').update(String(i)).digest('hex');
      const identity = `${1795322858 + Math.floor(i / 28) * 62}:sha256:${hash}`;
      insert.run(identity, ...cols.map((_c, j) => (j % 3 === 0 ? i : `value-${j}-${i}`)));
    }
  });
  for (let i = 0; i < rows; i += 5000) tx(i, Math.min(rows, i + 5000));
  db.close();
}

const SAMPLE_RECORD: Record<keyof NewCdrRecord, null> = {
  identity: null,
  uniqueid: null,
  linkedid: null,
  sequence: null,
  accountcode: null,
  clid: null,
  src: null,
  dst: null,
  dcontext: null,
  channel: null,
  dstchannel: null,
  lastapp: null,
  lastdata: null,
  start: null,
  answer: null,
  end: null,
  duration: null,
  billsec: null,
  disposition: null,
  amaflags: null,
  userfield: null,
  peeraccount: null,
  initialDestination: null,
  computedDestination: null,
  recordingUrl: null,
};

/** Wall-clock and CPU (user + system) seconds of one step: on a shared machine CPU time is steadier. */
interface Timing {
  wall: number;
  cpu: number;
}

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, Timing]> {
  const wallFrom = process.hrtime.bigint();
  const cpuFrom = process.cpuUsage();
  const result = await fn();
  const cpu = process.cpuUsage(cpuFrom);
  return [
    result,
    { wall: Number(process.hrtime.bigint() - wallFrom) / 1e9, cpu: (cpu.user + cpu.system) / 1e6 },
  ];
}

const rate = (n: number, t: Timing): string =>
  `${Math.round(n / t.wall)} /s wall, ${Math.round(n / t.cpu)} /s CPU (${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU)`;

const dir = mkdtempSync(join(tmpdir(), 'bench-cdr-import-'));
try {
  const csv = join(dir, 'Master.csv');
  generate(csv);
  const [parsed, parseTime] = await timed(() => csvParseOnly(csv));
  const [, rawTime] = await timed(() => rawSqliteInsert(join(dir, 'raw.db'), LINES));
  const [rawSinkInserted, rawSinkTime] = await timed(() =>
    importIntoRawSqlite(csv, join(dir, 'raw-sink.db')),
  );

  const store = await openStore({ db: join(dir, 'branchgate.db') });
  const insertTime: Timing = { wall: 0, cpu: 0 };
  const [summary, importTime] = await timed(() =>
    importCdrFile(
      csv,
      async (records) => {
        const [result, t] = await timed(() => insertCdrRecords(store, records));
        insertTime.wall += t.wall;
        insertTime.cpu += t.cpu;
        return result;
      },
      { threads: THREADS },
    ),
  );
  await store.close();
  const readTime = { wall: importTime.wall - insertTime.wall, cpu: importTime.cpu - insertTime.cpu };
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  const importRate = summary.inserted / importTime.wall;

  console.log(
    `lines: ${LINES}, imported: ${summary.inserted}, bad: ${summary.bad}, check threads: ${THREADS}, rss ${rss} MiB`,
  );
  console.log(`baseline csv-parse alone:            ${rate(parsed, parseTime)}`);
  console.log(`baseline raw better-sqlite3 insert:  ${rate(LINES, rawTime)}`);
  console.log(`branchgate cdr import (store):       ${rate(summary.inserted, importTime)}`);
  console.log(`  in insertCdrRecords:               ${rate(summary.inserted, insertTime)}`);
  console.log(`  reading, checking, mapping:        ${rate(summary.inserted, readTime)}`);
  console.log(`the same import, raw SQLite sink:    ${rate(rawSinkInserted, rawSinkTime)}`);
  console.log(
    `ratio import / csv-parse alone (wall): ${(importRate / (parsed / parseTime.wall)).toFixed(2)}`,
  );
  console.log(`ratio import / raw insert (wall):      ${(importRate / (LINES / rawTime.wall)).toFixed(2)}`);
  console.log(`target ${TARGET} records/s wall: ${importRate >= TARGET ? 'met' : 'NOT met'}`);
  if (summary.inserted !== LINES || rawSinkInserted !== LINES || importRate < TARGET) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
