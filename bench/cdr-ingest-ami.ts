// AMI ingest throughput, two figures against their targets (issue 10):
//  1. parse + map: the AmiParser framing a Cdr event stream and the row reader + mapping + identity
//     turning each event into a stored record's values, in process (target >= 20,000 records/s);
//  2. end to end: a loopback stand-in manager writes N Cdr events, the AmiSource stores them into a
//     fresh SQLite store; against `cdr import` of the same N records as a Master.csv into another
//     fresh SQLite store, in the same run (target >= 0.5x the import's rate).
// Medians of alternating rounds.  Usage: node bin/run-ts.js bench/cdr-ingest-ami.ts [records] [rounds]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTimeParser } from '../src/cdr/ingest/asterisk-time.js';
import { dialTarget } from '../src/cdr/ingest/destination.js';
import { cdrIdentity } from '../src/cdr/ingest/identity.js';
import { importCdrFile } from '../src/cdr/ingest/index.js';
import { createAmiCdrReader } from '../src/cdr/ingest/live/ami/ami-cdr-row.js';
import { AmiParser } from '../src/cdr/ingest/live/ami/ami-parser.js';
import { AmiSource } from '../src/cdr/ingest/live/ami/ami-source.js';
import { parseAmiSourceSpec } from '../src/cdr/ingest/live/ami/ami-source-spec.js';
import { toNewCdrRecord } from '../src/cdr/ingest/map-record.js';
import { insertCdrRecords } from '../src/cdr/record-store.js';
import { openStore } from '../src/store/index.js';

const N = Number(process.argv[2] ?? 50_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const DIR = new URL('../../shared/corpora/cdr/asterisk-22/', import.meta.url);
const capture = readFileSync(new URL('ami-cdr-events.txt', DIR), 'latin1');
const blocks = capture
  .split('\r\n\r\n')
  .filter((b) => b.startsWith('Event: Cdr'))
  .map((b) => `${b}\r\n\r\n`);
const lines = readFileSync(new URL('Master.csv', DIR), 'utf8').trim().split('\n');

/** Copy k of the capture: every uniqueid gets the suffix `-k` (so each copy is a new call). */
const events = Buffer.from(
  Array.from({ length: N }, (_, i) => {
    const k = Math.floor(i / blocks.length);
    return (blocks[i % blocks.length] as string).replace(/^UniqueID: (.*)$/m, `UniqueID: $1-${k}`);
  }).join(''),
  'latin1',
);
const work = mkdtempSync(join(tmpdir(), 'bg-bench-ami-'));
const csvPath = join(work, 'Master.csv');
writeFileSync(
  csvPath,
  `${Array.from({ length: N }, (_, i) => {
    const k = Math.floor(i / lines.length);
    return (lines[i % lines.length] as string).replace(/"(\d{10}\.\d+)","([^"]*)"$/, `"$1-${k}","$2"`);
  }).join('\n')}\n`,
);

function parseAndMap(): number {
  const t0 = performance.now();
  const parser = new AmiParser();
  const read = createAmiCdrReader(createTimeParser('UTC'));
  let n = 0;
  for (let at = 0; at < events.length; at += 65_536) {
    for (const f of parser.push(events.subarray(at, at + 65_536))) {
      if (f.kind !== 'message') continue;
      const r = read(f.fields, n);
      if (!r.ok) throw new Error(r.reason);
      const target = dialTarget(r.row.dstchannel, r.row.lastapp, r.row.lastdata);
      toNewCdrRecord(r.row, cdrIdentity(r.row), r.row.dst || target, target);
      n++;
    }
  }
  if (n !== N) throw new Error(`parsed ${n} of ${N}`);
  return performance.now() - t0;
}

async function amiEndToEnd(): Promise<number> {
  const dbDir = mkdtempSync(join(work, 'ami-'));
  const store = await openStore({ db: join(dbDir, 'b.db') });
  let started = 0;
  const server = createServer((socket: Socket) => {
    socket.write('Asterisk Call Manager/11.0.0\r\n');
    socket.once('data', () => {
      socket.write('Response: Success\r\nMessage: Authentication accepted\r\n\r\n');
      started = performance.now();
      socket.write(events);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const source = new AmiSource({ spec: parseAmiSourceSpec(`ami://u:p@127.0.0.1:${port}`), store });
  source.start();
  for (;;) {
    const s = source.status();
    if (s.recordsStored >= N) break;
    if (s.rejected > 0) throw new Error(`rejected: ${s.lastError?.message}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - started;
  await source.stop();
  server.close();
  await store.close();
  rmSync(dbDir, { recursive: true, force: true });
  return ms;
}

async function csvImport(): Promise<number> {
  const dbDir = mkdtempSync(join(work, 'csv-'));
  const store = await openStore({ db: join(dbDir, 'b.db') });
  const t0 = performance.now();
  const summary = await importCdrFile(csvPath, (r) => insertCdrRecords(store, r), {});
  const ms = performance.now() - t0;
  if (summary.inserted !== N) throw new Error(`imported ${summary.inserted} of ${N}`);
  await store.close();
  rmSync(dbDir, { recursive: true, force: true });
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const rate = (ms: number) => Math.round((N / ms) * 1000);

try {
  parseAndMap();
  const parse: number[] = [];
  const ami: number[] = [];
  const csv: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    parse.push(parseAndMap());
    // Alternate which store run goes first, so drift falls on both alike.
    if (r % 2 === 0) {
      ami.push(await amiEndToEnd());
      csv.push(await csvImport());
    } else {
      csv.push(await csvImport());
      ami.push(await amiEndToEnd());
    }
  }
  const p = rate(median(parse));
  const a = rate(median(ami));
  const c = rate(median(csv));
  const ratio = a / c;
  process.stdout.write(
    `${N} records, medians of ${ROUNDS} alternating rounds:\n` +
      `  AMI parse + map: ${p} records/s (target 20000: ${p >= 20_000 ? 'met' : 'NOT met'})\n` +
      `  AMI end to end into SQLite: ${a} records/s; cdr import of the same records: ${c} records/s; ` +
      `AMI / import = ${ratio.toFixed(2)} (target 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})\n`,
  );
  if (p < 20_000 || ratio < 0.5) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
