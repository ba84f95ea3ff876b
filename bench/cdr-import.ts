// CDR import throughput: a 1,000,000-line Master.csv (the real capture's rows, uniqueids varied)
// imported end to end into a fresh SQLite store, against two baselines in the same run: csv-parse
// alone reading the file, and a raw better-sqlite3 prepared insert of the same number of rows.
// Usage: node bin/run-ts.js bench/cdr-import.ts [lines]   (target: >= 50,000 records/s)
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { parse } from 'csv-parse';
import { importCdrFile } from '../src/cdr/ingest/index.js';
import { insertCdrRecords } from '../src/cdr/record-store.js';
import { openStore } from '../src/store/index.js';

const LINES = Number(process.argv[2] ?? 1_000_000);
const CAPTURE = new URL('../../shared/corpora/cdr/asterisk-22/Master.csv', import.meta.url);
const TARGET = 50_000;

/** The capture's 28 rows repeated; copy k moves every uniqueid's epoch by k so each copy is new. */
function generate(path: string): void {
  const rows = readFileSync(CAPTURE, 'utf8').trim().split('\n');
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const k = Math.floor(i / rows.length);
    const row = rows[i % rows.length] as string;
    out.push(
      row.replace(/"(\d{10})\.(\d+)","([^"]*)"$/, (_m, epoch: string, n: string, uf: string) => {
        return `"${Number(epoch) + k}.${n}","${uf}"`;
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

function rawSqliteInsert(file: string, rows: number): void {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const cols = Array.from({ length: 27 }, (_v, i) => `c${i}`);
  db.exec(`create table t (id integer primary key, ${cols.join(', ')}, unique (c0))`);
  const insert = db.prepare(`insert into t (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`);
  const tx = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      insert.run(
        `1795322858.${i}|1795322858.0|${i}`,
        ...cols.slice(1).map((_c, j) => (j % 3 === 0 ? i : `value-${j}`)),
      );
    }
  });
  for (let i = 0; i < rows; i += 5000) tx(i, Math.min(rows, i + 5000));
  db.close();
}

const seconds = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9;

const dir = mkdtempSync(join(tmpdir(), 'bench-cdr-import-'));
try {
  const csv = join(dir, 'Master.csv');
  generate(csv);
  let t = process.hrtime.bigint();
  const parsed = await csvParseOnly(csv);
  const parseRate = parsed / seconds(t);

  t = process.hrtime.bigint();
  rawSqliteInsert(join(dir, 'raw.db'), LINES);
  const rawRate = LINES / seconds(t);

  const store = await openStore({ db: join(dir, 'branchgate.db') });
  t = process.hrtime.bigint();
  let insertSeconds = 0;
  const summary = await importCdrFile(csv, async (records) => {
    const from = process.hrtime.bigint();
    const result = await insertCdrRecords(store, records);
    insertSeconds += seconds(from);
    return result;
  });
  const importSeconds = seconds(t);
  await store.close();
  const importRate = summary.inserted / importSeconds;
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);

  console.log(
    `lines: ${LINES}, imported: ${summary.inserted}, bad: ${summary.bad}, duplicates: ${summary.duplicates}`,
  );
  console.log(`csv-parse alone:          ${Math.round(parseRate)} records/s`);
  console.log(`raw better-sqlite3 insert: ${Math.round(rawRate)} rows/s`);
  console.log(
    `branchgate cdr import:    ${Math.round(importRate)} records/s (${importSeconds.toFixed(1)} s, rss ${rss} MiB)`,
  );
  console.log(
    `  of which in insertCdrRecords: ${insertSeconds.toFixed(1)} s (${Math.round(LINES / insertSeconds)} records/s), ` +
      `reading and mapping: ${(importSeconds - insertSeconds).toFixed(1)} s (${Math.round(LINES / (importSeconds - insertSeconds))} records/s)`,
  );
  console.log(`ratio import / csv-parse: ${(importRate / parseRate).toFixed(2)}`);
  console.log(`ratio import / raw insert: ${(importRate / rawRate).toFixed(2)}`);
  console.log(`target ${TARGET} records/s: ${importRate >= TARGET ? 'met' : 'NOT met'}`);
  if (summary.inserted !== LINES) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
