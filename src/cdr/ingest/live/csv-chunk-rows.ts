// Pure: a run of whole Master.csv lines (bytes) -> typed rows and bad lines, with the import's own
// parts (decodeLine, csv-lines, columns, source-row), so a line reads the same live as imported.
import { detectLayout, type Layout } from '../columns.js';
import { parseCsvLines } from '../csv-lines.js';
import { decodeLine, MAX_LINE_LENGTH } from '../line-reader.js';
import type { RowReader } from '../source-row.js';
import type { LiveRow } from './store-source-rows.js';

/** A line that was not stored, with its number. */
export interface BadCsvLine {
  line: number;
  reason: string;
}

/** What a chunk gave. */
export interface ChunkRows {
  rows: LiveRow[];
  bad: BadCsvLine[];
  /** Physical lines in the chunk (blank ones included). */
  lines: number;
  /** The layout after this chunk (detected from its first record when none was known). */
  layout: Layout | null;
}

const LF = 0x0a;

/**
 * Reads `bytes` (whole lines; the last may lack its LF) numbered from `firstLine`. `layout` is the
 * source's layout, or null to detect it from the first record as `cdr import` does; `readerFor`
 * gives the row reader of a layout (in the source's time zone).
 */
export function chunkRows(
  bytes: Buffer,
  firstLine: number,
  atFileStart: boolean,
  layout: Layout | null,
  readerFor: (layout: Layout) => RowReader,
): ChunkRows {
  const texts: string[] = [];
  const bad: BadCsvLine[] = [];
  let from = 0;
  while (from < bytes.length) {
    const at = bytes.indexOf(LF, from);
    const end = at === -1 ? bytes.length : at;
    const lineNo = firstLine + texts.length;
    if (end - from > MAX_LINE_LENGTH) {
      bad.push({ line: lineNo, reason: `longer than ${MAX_LINE_LENGTH} characters` });
      texts.push('');
    } else {
      let { text } = decodeLine(bytes.subarray(from, end));
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (atFileStart && texts.length === 0 && text.startsWith('\uFEFF')) text = text.slice(1);
      texts.push(text);
    }
    from = end + 1;
  }
  const rows: LiveRow[] = [];
  let current = layout;
  for (const csv of parseCsvLines(firstLine, texts)) {
    if (!csv.ok) {
      bad.push({ line: csv.line, reason: csv.reason });
      continue;
    }
    if (!current) {
      current = detectLayout(csv.fields);
      if (!current) {
        bad.push({
          line: csv.line,
          reason: `has ${csv.fields.length} fields; Asterisk's layouts have 16, 17, 18 or 21 (else give columns=)`,
        });
        continue;
      }
    }
    const result = readerFor(current)(csv.line, csv.fields);
    if (result.ok) rows.push({ row: result.row, fields: csv.fields });
    else bad.push({ line: csv.line, reason: result.reason });
  }
  bad.sort((a, b) => a.line - b.line);
  return { rows, bad, lines: texts.length, layout: current };
}
