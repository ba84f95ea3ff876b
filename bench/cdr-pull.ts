// Benchmark: CDR pull throughput on a store of 1,000,000 records, page 1 and page 10,000 at limit
// 100, on SQLite and PostgreSQL, against a baseline in the same run: the same page query (raw
// driver, no Kysely) and JSON.stringify in a bare node:http handler. Both serve plain HTTP on
// loopback so TLS cost does not blur the ratio; the load comes from a worker thread.
//
//   node bin/run-ts.js bench/cdr-pull.ts [--records 1000000] [--requests 3000] [--only sqlite|postgres]
//
// Targets (issue 2): ours >= 0.7 x baseline requests/s; page 10,000 latency <= 1.5 x page 1.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { addExtension } from '../src/auth/index.js';
import { buildApp } from '../src/server/app.js';
import { openStore, type Store } from '../src/store/index.js';
import { createTestDatabase } from '../test/support/databases.js';
import { type LoadResult, loadInWorker } from './support/http-load.js';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '8' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const RECORDS = Number(args.records);
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const LIMIT = 100;
const FAR_PAGE = Math.min(10_000, Math.floor(RECORDS / LIMIT));

/** Fills the cdr table with RECORDS rows in one SQL statement (dense db_id 1..N). */
async function seed(store: Store): Promise<void> {
  const series =
    store.kind === 'postgres'
      ? sql`generate_series(1, ${RECORDS}) AS s(i)`
      : sql`(WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < ${RECORDS}) SELECT i FROM t) AS s`;
  await sql`INSERT INTO cdr (db_id, identity, uniqueid, linkedid, sequence, accountcode, clid, src, dst, dcontext,
      channel, dstchannel, lastapp, lastdata, start_ts, answer_ts, end_ts, duration, billsec, disposition, amaflags,
      userfield, peeraccount, initial_destination, computed_destination, recording_url, created_at_ms)
    SELECT i, 'bench-' || i, '1795322858.' || i, '1795322858.' || i, 1, 'sales', '"Alice Martin" <4001>', '4001',
      '2011', 'sip_internal', 'Local/2011@from-4001-00000000;2', 'Local/2011@phones-00000001;1', 'Dial',
      'Local/2011@phones/n,10,tT', 1795322858 + i, CASE WHEN i % 3 = 0 THEN NULL ELSE 1795322859 + i END,
      1795322863 + i, 5, 4, 'ANSWERED', 'DOCUMENTATION', '', '', '2011', '', '', 0
    FROM ${series}`.execute(store.db);
}

const pad = (n: number) => String(n).padStart(2, '0');
const fmt = (unix: number) => {
  const d = new Date(unix * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};
interface RawRow {
  db_id: number;
  uniqueid: string;
  clid: string;
  src: string;
  dcontext: string;
  dst: string;
  initial_destination: string;
  computed_destination: string;
  disposition: string;
  start_ts: number;
  answer_ts: number | null;
  end_ts: number;
  recording_url: string;
}
const toWire = (r: RawRow) => ({
  db_id: Number(r.db_id),
  call_id: r.uniqueid,
  caller_id: r.clid,
  source: r.src,
  destination_context: r.dcontext,
  destination: r.dst,
  initial_destination: r.initial_destination,
  computed_destination: r.computed_destination,
  disposition: r.disposition,
  timestamp: String(r.start_ts),
  date: fmt(Number(r.start_ts)),
  start_time: fmt(Number(r.start_ts)),
  answer_time: r.answer_ts === null ? '' : fmt(Number(r.answer_ts)),
  end_time: fmt(Number(r.end_ts)),
  recording_url: r.recording_url,
});

/** The baseline: a bare node:http handler running the same page query on the raw driver. */
async function startBaseline(kind: 'sqlite' | 'postgres', location: string) {
  const pageSql = 'SELECT * FROM cdr WHERE db_id > $1 ORDER BY db_id LIMIT $2';
  let page: (after: number, limit: number) => Promise<RawRow[]>;
  let total: () => Promise<number>;
  let close: () => Promise<void>;
  if (kind === 'sqlite') {
    const db = new SqliteDatabase(location, { readonly: true });
    const stmt = db.prepare(pageSql.replace('$1', '?').replace('$2', '?'));
    const max = db.prepare('SELECT max(db_id) AS n FROM cdr');
    page = async (after, limit) => stmt.all(after, limit) as RawRow[];
    total = async () => (max.get() as { n: number }).n;
    close = async () => {
      db.close();
    };
  } else {
    const pool = new pg.Pool({ connectionString: location, max: 10 });
    // As the store's own pool does: a cut idle connection is replaced, not fatal.
    pool.on('error', (err) => process.emitWarning(`baseline pool: ${err.message}`));
    page = async (after, limit) => (await pool.query(pageSql, [after, limit])).rows as RawRow[];
    total = async () => Number((await pool.query('SELECT max(db_id) AS n FROM cdr')).rows[0].n);
    close = () => pool.end();
  }
  const server = createServer(async (req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const p = Number(q.get('page') ?? 1);
    const limit = Number(q.get('limit') ?? 10);
    const n = await total();
    const rows = await page((p - 1) * limit, limit);
    const body = JSON.stringify({
      data: rows.map(toWire),
      page: String(p),
      limit: String(limit),
      total_pages: Math.ceil(n / limit),
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await close();
    },
  };
}

async function measure(url: string, headers: Record<string, string>, page: number): Promise<LoadResult> {
  const spec = { url: `${url}/pbx/cdr/data?page=${page}&limit=${LIMIT}`, headers, concurrency: CONCURRENCY };
  await loadInWorker({ ...spec, requests: Math.max(100, REQUESTS / 10) }); // warm-up
  return loadInWorker({ ...spec, requests: REQUESTS });
}

async function benchKind(kind: 'sqlite' | 'postgres'): Promise<string[]> {
  const scratch = await createTestDatabase(kind, args.pg as string);
  const location = scratch.url;
  const cleanup = () => scratch.drop();
  const store = await openStore({ db: location });
  const t0 = performance.now();
  await seed(store);
  if (kind === 'postgres') await sql`VACUUM ANALYZE cdr`.execute(store.db);
  process.stderr.write(
    `${kind}: seeded ${RECORDS} records in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  await addExtension(store, { number: '1001', secret: 's3cret', cdrAccess: true });
  const key = createHash('sha256').update('s3cret').digest('hex');
  const { app } = await buildApp({ store, logLevel: 'silent' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const ours = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const base = await startBaseline(kind, location);
  const auth = { authorization: `Basic ${Buffer.from(`1001:${key}`).toString('base64')}` };
  const lines: string[] = [];
  // Rounds alternate baseline and ours; the median round of each is kept, so a burst of load from
  // elsewhere on the machine skews both sides alike rather than one.
  const results: Record<string, LoadResult> = {};
  const median = (runs: LoadResult[]) =>
    [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[
      Math.floor(runs.length / 2)
    ] as LoadResult;
  for (const page of [1, FAR_PAGE]) {
    const b: LoadResult[] = [];
    const o: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      b.push(await measure(base.url, {}, page));
      o.push(await measure(ours, auth, page));
    }
    results[`base-${page}`] = median(b);
    results[`ours-${page}`] = median(o);
  }
  for (const page of [1, FAR_PAGE]) {
    const o = results[`ours-${page}`] as LoadResult;
    const b = results[`base-${page}`] as LoadResult;
    if (o.errors || b.errors)
      throw new Error(`${kind} page ${page}: ${o.errors} / ${b.errors} failed requests`);
    lines.push(
      `| ${kind} | ${page} | ${o.requestsPerSecond.toFixed(0)} | ${b.requestsPerSecond.toFixed(0)} | ` +
        `**${(o.requestsPerSecond / b.requestsPerSecond).toFixed(2)}** | ${o.meanLatencyMs.toFixed(2)} | ${o.p99LatencyMs.toFixed(2)} |`,
    );
  }
  const o1 = results['ours-1'] as LoadResult;
  const oFar = results[`ours-${FAR_PAGE}`] as LoadResult;
  lines.push(
    `| ${kind} | page ${FAR_PAGE} / page 1 mean latency | | | **${(oFar.meanLatencyMs / o1.meanLatencyMs).toFixed(2)}** | | |`,
  );
  await app.close();
  await base.close();
  await store.close();
  await cleanup();
  return lines;
}

const kinds = (args.only ? [args.only] : ['sqlite', 'postgres']) as Array<'sqlite' | 'postgres'>;
const out = [
  `records ${RECORDS}, limit ${LIMIT}, ${REQUESTS} requests per run, median of ${ROUNDS} alternating runs, concurrency ${CONCURRENCY}`,
  '| store | page | ours req/s | baseline req/s | ours / baseline | ours mean ms | ours p99 ms |',
  '|---|---|---|---|---|---|---|',
];
for (const kind of kinds) out.push(...(await benchKind(kind)));
process.stdout.write(`${out.join('\n')}\n`);
