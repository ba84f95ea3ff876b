// `branchgate cdr import`: an Asterisk CDR CSV into the store, in two passes so that a call's
// records can be related however far apart they are in the file:
//   pass 1 (check-file.ts, check-range.ts; with threads > 1 one worker per byte range): lines ->
//           CSV fields -> typed rows (bad lines reported) -> spool files + call-group members
//   pass 2 (insert-spools.ts): spools -> NewCdrRecord (destinations from the resolved groups) ->
//           insert in batches
// With strict, any bad line refuses the import before anything is inserted.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noProgress, type Progress } from '../../shared/progress.js';
import { createTimeParser } from './asterisk-time.js';
import { checkFile } from './check-file.js';
import type { BadLine } from './check-range.js';
import type { Layout } from './columns.js';
import { CdrImportError } from './errors.js';
import { type InsertBatch, insertSpools } from './insert-spools.js';

export type { BadLine } from './check-range.js';
export type { InsertBatch } from './insert-spools.js';

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

/** Imports one CDR CSV file through `insert`; see the file comment for the flow. */
export async function importCdrFile(
  path: string,
  insert: InsertBatch,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const timezone = options.timezone ?? 'UTC';
  createTimeParser(timezone); // refuses a bad zone before anything is read
  const progress = options.progress ?? noProgress;
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new CdrImportError('unreadable', `cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  // The spools live in a directory only this user can read (mkdtemp: 0700), removed at the end.
  const spoolDir = mkdtempSync(join(tmpdir(), 'branchgate-cdr-import-'));
  try {
    const check = await checkFile(path, size, {
      layout: options.layout ?? null,
      timezone,
      threads: options.threads ?? 1,
      onBadLine: (bad) => {
        if (!options.strict) options.onBadLine?.(bad);
      },
      progress,
      spoolPath: (i) => join(spoolDir, `rows-${i}.spool`),
    });
    if (check.read > 0 && !check.layout) {
      throw new CdrImportError(
        'unknown_layout',
        `${path}: cannot tell the column layout: no line has 16, 17, 18 or 21 fields; pass --columns`,
      );
    }
    if (options.strict && check.bad.length > 0) throw strictRefusal(path, check.bad);
    check.groups.resolve();

    progress.start(check.good, 'importing (records)');
    let stored: { inserted: number; duplicates: number };
    try {
      stored = await insertSpools(check.spools, check.groups, insert, options.batchSize ?? 5000, progress);
    } finally {
      progress.stop();
    }
    const { read, latin1 } = check;
    return { layout: check.layout?.name ?? 'none', read, ...stored, bad: check.bad.length, latin1 };
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

function strictRefusal(path: string, bad: readonly BadLine[]): CdrImportError {
  const shown = bad.slice(0, SHOWN_IN_STRICT).map((b) => `\n  ${path}:${b.line}: ${b.reason}`);
  const more = bad.length > SHOWN_IN_STRICT ? `\n  ... and ${bad.length - SHOWN_IN_STRICT} more` : '';
  return new CdrImportError(
    'bad_lines',
    `${path}: ${bad.length} bad line(s), nothing imported (--strict):${shown.join('')}${more}`,
  );
}
