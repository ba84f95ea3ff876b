// `branchgate cdr import`: an Asterisk CDR CSV into the store, in two passes so that a call's
// records can be related however far apart they are in the file:
//   pass 1: file -> lines -> CSV fields -> typed rows (bad lines reported) -> spool file + groups
//   pass 2: spool (typed rows, see spool.ts) -> NewCdrRecord (destinations from the resolved
//           groups) -> insert in batches
// With strict, any bad line refuses the import before anything is inserted.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noProgress, type Progress } from '../../shared/progress.js';
import type { NewCdrRecord } from '../record.js';
import { createTimeParser } from './asterisk-time.js';
import { detectLayout, type Layout } from './columns.js';
import { parseCsvLines } from './csv-lines.js';
import { dialTarget, type GroupMember } from './destination.js';
import { CdrImportError } from './errors.js';
import { GroupIndex, groupKeyOf } from './group-index.js';
import { cdrIdentity } from './identity.js';
import { MAX_LINE_LENGTH, readLineBatches } from './line-reader.js';
import { toNewCdrRecord } from './map-record.js';
import { createRowReader, type RowResult, type SourceRow } from './source-row.js';
import { decodeSpoolEntry, encodeSpoolEntry } from './spool.js';

/** A line that was skipped (or, with strict, that refused the import). */
export interface BadLine {
  line: number;
  reason: string;
}

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
  /** Called for each bad line as it is found (not called under strict). */
  onBadLine?: ((bad: BadLine) => void) | undefined;
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

/** Imports one CDR CSV file through `insert`; see the file comment for the flow. */
export async function importCdrFile(
  path: string,
  insert: InsertBatch,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const parseTime = createTimeParser(options.timezone ?? 'UTC');
  const progress = options.progress ?? noProgress;
  const batchSize = options.batchSize ?? 5000;
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new CdrImportError('unreadable', `cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }

  let layout = options.layout;
  let readRow = layout ? createRowReader(layout, parseTime) : null;
  const groups = new GroupIndex();
  const bad: BadLine[] = [];
  const reportBad = (b: BadLine): void => {
    bad.push(b);
    if (!options.strict) options.onBadLine?.(b);
  };
  let read = 0;
  let good = 0;
  let latin1 = 0;
  // The spool lives in a directory only this user can read (mkdtemp: 0700), removed at the end.
  const spoolDir = mkdtempSync(join(tmpdir(), 'branchgate-cdr-import-'));
  const spoolPath = join(spoolDir, 'rows.spool');
  try {
    // Pass 1: check every line, spool the good rows, gather the groups.
    const fd = openSync(spoolPath, 'w');
    try {
      progress.start(size, 'checking (bytes)');
      for await (const batch of readLineBatches(path)) {
        latin1 += batch.latin1Lines.length;
        for (const line of batch.oversized) {
          read++;
          reportBad({ line, reason: `longer than ${MAX_LINE_LENGTH} characters` });
        }
        const out: string[] = [];
        for (const csv of parseCsvLines(batch.firstLine, batch.lines)) {
          read++;
          if (!csv.ok) {
            reportBad({ line: csv.line, reason: csv.reason });
            continue;
          }
          if (!layout || !readRow) {
            layout = detectLayout(csv.fields) ?? undefined;
            if (!layout) {
              reportBad({
                line: csv.line,
                reason: `has ${csv.fields.length} fields; Asterisk's layouts have 16, 17, 18 or 21 (else pass --columns)`,
              });
              continue;
            }
            readRow = createRowReader(layout, parseTime);
          }
          const result: RowResult = readRow(csv.line, csv.fields);
          if (!result.ok) {
            reportBad({ line: csv.line, reason: result.reason });
            continue;
          }
          const row = result.row;
          const target = dialTarget(row.dstchannel, row.lastapp, row.lastdata);
          groups.add(groupKeyOf(row), memberOf(row, target, good));
          out.push(encodeSpoolEntry({ identity: cdrIdentity(row, csv.fields), target, row }));
          good++;
        }
        if (out.length) writeSync(fd, `${out.join('\n')}\n`);
        progress.update(batch.bytesRead);
      }
    } finally {
      closeSync(fd);
      progress.stop();
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
      for await (const batch of readLineBatches(spoolPath, { maxLineLength: Number.POSITIVE_INFINITY })) {
        for (const text of batch.lines) {
          if (text === '') continue;
          const { identity, target, row } = decodeSpoolEntry(text);
          const initial = groups.initialDestination(groupKeyOf(row), row.dst, target);
          pending.push(toNewCdrRecord(row, identity, initial, target));
          if (pending.length >= batchSize) await flush();
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

function memberOf(row: SourceRow, target: string, index: number): GroupMember {
  return { sequence: row.sequence, start: row.start, index, dst: row.dst, target, channel: row.channel };
}
