// Pass 1 of the import over one byte range of the file (the whole file, or a part read by a worker
// thread): lines -> CSV fields -> typed rows -> spool file, plus the bad lines and the call-group
// members of the range. Line numbers and row indexes are relative to the range.
import { closeSync, openSync, writeSync } from 'node:fs';
import { createTimeParser } from './asterisk-time.js';
import { detectLayout, type Layout } from './columns.js';
import { parseCsvLines } from './csv-lines.js';
import { dialTarget } from './destination.js';
import { groupKeyOf } from './group-index.js';
import { cdrIdentity } from './identity.js';
import { MAX_LINE_LENGTH, readLineBatches } from './line-reader.js';
import { createRowReader, type RowReader } from './source-row.js';
import { encodeSpoolEntry } from './spool.js';

/** A line that was skipped (or, with strict, that refused the import). */
export interface BadLine {
  line: number;
  reason: string;
}

/** What one checker reads and where it spools; plain data, so it can be sent to a worker. */
export interface CheckRangeInput {
  path: string;
  /** Byte range [start, end) of the file; start is 0 or just after an LF. */
  start: number;
  end: number;
  /** The layout, when known (--columns, or detected by the caller); else detected here. */
  layout: Layout | null;
  timezone: string;
  spoolPath: string;
}

/** The group members of a range as parallel arrays (cheap to send between threads). */
export interface PackedMembers {
  key: string[];
  /** Row index within the range. */
  index: number[];
  /** NaN when the row has no sequence. */
  sequence: number[];
  start: number[];
  dst: string[];
  target: string[];
  channel: string[];
}

/** The outcome of checking one range. */
export interface CheckRangeResult {
  layout: Layout | null;
  /** Physical lines in the range (blank ones included), to number the next range's lines. */
  lines: number;
  /** Non-empty lines. */
  read: number;
  /** Good rows spooled. */
  good: number;
  latin1: number;
  bad: BadLine[];
  members: PackedMembers;
}

/** Checks and spools one range; `onBad` sees each bad line as found, `onBytes` the bytes read. */
export async function checkRange(
  input: CheckRangeInput,
  onBad: (bad: BadLine) => void = () => {
    // the caller does not want bad lines reported
  },
  onBytes: (bytesRead: number) => void = () => {
    // no progress to show
  },
): Promise<CheckRangeResult> {
  const parseTime = createTimeParser(input.timezone);
  let layout = input.layout;
  let readRow: RowReader | null = layout ? createRowReader(layout, parseTime) : null;
  const members: PackedMembers = {
    key: [],
    index: [],
    sequence: [],
    start: [],
    dst: [],
    target: [],
    channel: [],
  };
  const bad: BadLine[] = [];
  const reportBad = (b: BadLine): void => {
    bad.push(b);
    onBad(b);
  };
  let lines = 0;
  let read = 0;
  let good = 0;
  let latin1 = 0;
  const fd = openSync(input.spoolPath, 'w');
  try {
    for await (const batch of readLineBatches(input.path, { start: input.start, end: input.end })) {
      lines += batch.lines.length;
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
          layout = detectLayout(csv.fields);
          if (!layout) {
            reportBad({
              line: csv.line,
              reason: `has ${csv.fields.length} fields; Asterisk's layouts have 16, 17, 18 or 21 (else pass --columns)`,
            });
            continue;
          }
          readRow = createRowReader(layout, parseTime);
        }
        const result = readRow(csv.line, csv.fields);
        if (!result.ok) {
          reportBad({ line: csv.line, reason: result.reason });
          continue;
        }
        const row = result.row;
        const target = dialTarget(row.dstchannel, row.lastapp, row.lastdata);
        const key = groupKeyOf(row);
        if (key !== '') {
          members.key.push(key);
          members.index.push(good);
          members.sequence.push(row.sequence ?? Number.NaN);
          members.start.push(row.start);
          members.dst.push(row.dst);
          members.target.push(target);
          members.channel.push(row.channel);
        }
        out.push(encodeSpoolEntry({ identity: cdrIdentity(row), target, row }));
        good++;
      }
      if (out.length) writeSync(fd, `${out.join('\n')}\n`);
      onBytes(batch.bytesRead);
    }
  } finally {
    closeSync(fd);
  }
  return { layout, lines, read, good, latin1, bad, members };
}
