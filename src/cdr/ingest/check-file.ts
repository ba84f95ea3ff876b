// Pass 1 of the import over a whole file: in the calling thread, or (threads > 1, layout known)
// in one worker per byte range; then the ranges' results merged in file order: line numbers made
// absolute, bad lines in order, call-group members into one GroupIndex.
import type { Progress } from '../../shared/progress.js';
import { type BadLine, type CheckRangeResult, checkRange } from './check-range.js';
import { canUseCheckThreads, checkRangeInThread, splitAtLines } from './check-threads.js';
import { detectLayout, type Layout } from './columns.js';
import { parseCsvLines } from './csv-lines.js';
import { GroupIndex } from './group-index.js';
import { readLineBatches } from './line-reader.js';

/** How to check the file. */
export interface CheckFileOptions {
  layout: Layout | null;
  timezone: string;
  threads: number;
  /** Bad lines in line order, as found (one thread) or once the ranges are merged. */
  onBadLine: (bad: BadLine) => void;
  progress: Progress;
  /** Where range i spools its rows. */
  spoolPath: (range: number) => string;
}

/** The whole file checked. */
export interface FileCheck {
  layout: Layout | null;
  read: number;
  good: number;
  latin1: number;
  bad: BadLine[];
  groups: GroupIndex;
  /** The spool files, in file order. */
  spools: string[];
}

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

async function runChecks(path: string, size: number, options: CheckFileOptions): Promise<CheckRangeResult[]> {
  const { progress, timezone } = options;
  let layout = options.layout;
  let ranges = [{ start: 0, end: size }];
  if (options.threads > 1 && size > 0 && canUseCheckThreads()) {
    layout ??= await detectLayoutFromHead(path, size);
    if (layout) ranges = splitAtLines(path, size, options.threads);
  }
  const inputs = ranges.map((r, i) => ({ path, ...r, layout, timezone, spoolPath: options.spoolPath(i) }));
  const one = inputs.length === 1 ? inputs[0] : undefined;
  if (one) return [await checkRange(one, options.onBadLine, (n) => progress.update(n))];
  const rangeBytes = inputs.map(() => 0);
  return Promise.all(
    inputs.map((input, i) =>
      checkRangeInThread(input, (n) => {
        rangeBytes[i] = n;
        progress.update(rangeBytes.reduce((a, b) => a + b, 0));
      }),
    ),
  );
}

/** Checks and spools the whole file; see the file comment. */
export async function checkFile(path: string, size: number, options: CheckFileOptions): Promise<FileCheck> {
  options.progress.start(size, 'checking (bytes)');
  let results: CheckRangeResult[];
  try {
    results = await runChecks(path, size, options);
    options.progress.update(size);
  } finally {
    options.progress.stop();
  }
  const check: FileCheck = {
    layout: options.layout,
    read: 0,
    good: 0,
    latin1: 0,
    bad: [],
    groups: new GroupIndex(),
    spools: results.map((_r, i) => options.spoolPath(i)),
  };
  let lineOffset = 0;
  for (const r of results) {
    for (const b of r.bad) {
      const absolute = { line: b.line + lineOffset, reason: b.reason };
      check.bad.push(absolute);
      if (results.length > 1) options.onBadLine(absolute);
    }
    const m = r.members;
    for (let i = 0; i < m.key.length; i++) {
      const sequence = m.sequence[i] as number;
      check.groups.add(m.key[i] as string, {
        sequence: Number.isNaN(sequence) ? null : sequence,
        start: m.start[i] as number,
        index: check.good + (m.index[i] as number),
        dst: m.dst[i] as string,
        target: m.target[i] as string,
        channel: m.channel[i] as string,
      });
    }
    check.layout ??= r.layout;
    check.read += r.read;
    check.good += r.good;
    check.latin1 += r.latin1;
    lineOffset += r.lines;
  }
  return check;
}
