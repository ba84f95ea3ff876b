// `branchgate cdr import`: an Asterisk CDR CSV into the store, in two passes so that a call's
// records can be related however far apart they are in the file:
//   pass 1 (check-range.ts; with threads > 1 one worker per byte range): lines -> CSV fields ->
//           typed rows (bad lines reported) -> spool files + call-group members
//   pass 2: spools (typed rows, see spool.ts) -> NewCdrRecord (destinations from the resolved
//           groups) -> insert in batches
// With strict, any bad line refuses the import before anything is inserted.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noProgress, type Progress } from '../../shared/progress.js';
import type { NewCdrRecord } from '../record.js';
import { createTimeParser } from './asterisk-time.js';
import { type BadLine, type CheckRangeResult, checkRange } from './check-range.js';
import { canUseCheckThreads, checkRangeInThread, splitAtLines } from './check-threads.js';
import { detectLayout, type Layout } from './columns.js';
import { parseCsvLines } from './csv-lines.js';
import { CdrImportError } from './errors.js';
import { GroupIndex, groupKeyOf } from './group-index.js';
import { readLineBatches } from './line-reader.js';
import { toNewCdrRecord } from './map-record.js';
import { decodeSpoolEntry } from './spool.js';

export type { BadLine } from './check-range.js';

/** Stores a batch of records in one transaction; says how many were new. */
export type InsertBatch = (records: NewCdrRecord[]) => Promise<{ inserted: number; duplicates: number }>;

/** How to read the file. */
export interface ImportOptions {
  /** The column layout (from --columns); detected from the first record when absent. */
  layout?: Layout | undefined;
  /** IANA zone the file's wall-clock times are in (default UTC, i.e. usegmtime=yes). */
  timezone?: string | undefined;
  /** Refuse the whole import when any line is bad. */
  strict?: boolean | undefined;
  /** Records per insert transaction (default 5000). */
  batchSize?: number | undefined;
  progress?: Progress | undefined;
  /** Called for each bad line, in line order (not called under strict). */
  onBadLine?: ((bad: BadLine) => void) | undefined;
  /** Worker threads for pass 1 (default 1: the calling thread); used when the layout is known. */
  threads?: number | undefined;
}

/** What an import did. */
export interface ImportSummary {
  layout: string;
  /** Non-empty lines read. */
  read: number;
  inserted: number;
  duplicates: number;
  bad: number;
  /** Lines that were not UTF-8 and were read as Latin-1. */
  latin1: number;
}

const SHOWN_IN_STRICT = 10;

const HEAD_BYTES = 256 * 1024;

/** The layout of the first line in the file's head that has an Asterisk width, or null. */
async function detectLayoutFromHead(path: string, size: number): Promise<Layout | null> {
  const end = Math.min(size, HEAD_BYTES);
  const lines: string[] = [];
  for await (const batch of readLineBatches(path, { end })) lines.push(...batch.lines);
  if (end < size) lines.pop(); // possibly cut short
  for (const csv of parseCsvLines(1, lines)) {
    const layout = csv.ok ? detectLayout(csv.fields) : null;
    if (layout) return layout;
  }
  return null;
}

/** Imports one CDR CSV file through `insert`; see the file comment for the flow. */
export async function importCdrFile(
  path: string,
  insert: InsertBatch,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const timezone = options.timezone ?? 'UTC';
  createTimeParser(timezone); // refuses a bad zone before anything is read
  const progress = options.progress ?? noProgress;
  const batchSize = options.batchSize ?? 5000;
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new CdrImportError('unreadable', `cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }

  // The spools live in a directory only this user can read (mkdtemp: 0700), removed at the end.
  const spoolDir = mkdtempSync(join(tmpdir(), 'branchgate-cdr-import-'));
  const spoolPath = (i: number): string => join(spoolDir, `rows-${i}.spool`);
  try {
    // Pass 1: check every line, spool the good rows, gather the groups.
    let layout = options.layout ?? null;
    let ranges = [{ start: 0, end: size }];
    const threads = options.threads ?? 1;
    if (threads > 1 && size > 0 && canUseCheckThreads()) {
      layout ??= await detectLayoutFromHead(path, size);
      if (layout) ranges = splitAtLines(path, size, threads);
    }
    const inputs = ranges.map((r, i) => ({ path, ...r, layout, timezone, spoolPath: spoolPath(i) }));
    const liveBad = options.strict || ranges.length > 1 ? undefined : options.onBadLine;
    let results: CheckRangeResult[];
    const rangeBytes = inputs.map(() => 0);
    progress.start(size, 'checking (bytes)');
    try {
      results =
        inputs.length === 1
          ? [await checkRange(inputs[0] as (typeof inputs)[0], liveBad, (n) => progress.update(n))]
          : await Promise.all(
              inputs.map((input, i) =>
                checkRangeInThread(input, (n) => {
                  rangeBytes[i] = n;
                  progress.update(rangeBytes.reduce((a, b) => a + b, 0));
                }),
              ),
            );
      progress.update(size);
    } finally {
      progress.stop();
    }

    const groups = new GroupIndex();
    const bad: BadLine[] = [];
    let read = 0;
    let good = 0;
    let latin1 = 0;
    let lineOffset = 0;
    for (const r of results) {
      for (const b of r.bad) {
        const absolute = { line: b.line + lineOffset, reason: b.reason };
        bad.push(absolute);
        if (ranges.length > 1 && !options.strict) options.onBadLine?.(absolute);
      }
      const m = r.members;
      for (let i = 0; i < m.key.length; i++) {
        const sequence = m.sequence[i] as number;
        groups.add(m.key[i] as string, {
          sequence: Number.isNaN(sequence) ? null : sequence,
          start: m.start[i] as number,
          index: good + (m.index[i] as number),
          dst: m.dst[i] as string,
          target: m.target[i] as string,
          channel: m.channel[i] as string,
        });
      }
      layout ??= r.layout;
      read += r.read;
      good += r.good;
      latin1 += r.latin1;
      lineOffset += r.lines;
    }
    if (read > 0 && !layout) {
      throw new CdrImportError(
        'unknown_layout',
        `${path}: cannot tell the column layout: no line has 16, 17, 18 or 21 fields; pass --columns`,
      );
    }
    if (options.strict && bad.length > 0) {
      const shown = bad.slice(0, SHOWN_IN_STRICT).map((b) => `\n  ${path}:${b.line}: ${b.reason}`);
      const more = bad.length > SHOWN_IN_STRICT ? `\n  ... and ${bad.length - SHOWN_IN_STRICT} more` : '';
      throw new CdrImportError(
        'bad_lines',
        `${path}: ${bad.length} bad line(s), nothing imported (--strict):${shown.join('')}${more}`,
      );
    }
    groups.resolve();

    // Pass 2: map and insert, one transaction per batch.
    let inserted = 0;
    let duplicates = 0;
    let pending: NewCdrRecord[] = [];
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      const r = await insert(pending);
      inserted += r.inserted;
      duplicates += r.duplicates;
      progress.increment(pending.length);
      pending = [];
    };
    progress.start(good, 'importing (records)');
    try {
      for (const input of inputs) {
        for await (const batch of readLineBatches(input.spoolPath, {
          maxLineLength: Number.POSITIVE_INFINITY,
        })) {
          for (const text of batch.lines) {
            if (text === '') continue;
            const { identity, target, row } = decodeSpoolEntry(text);
            const initial = groups.initialDestination(groupKeyOf(row), row.dst, target);
            pending.push(toNewCdrRecord(row, identity, initial, target));
            if (pending.length >= batchSize) await flush();
          }
        }
      }
      await flush();
    } finally {
      progress.stop();
    }
    return { layout: layout?.name ?? 'none', read, inserted, duplicates, bad: bad.length, latin1 };
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
}
