// Splits decoded lines into fields with csv-parse ("" inside a quoted field is one quote). A batch
// is parsed in one call; when anything in it is malformed it is parsed again line by line, so a bad
// line is reported with its own number and never takes its neighbours with it.
import { parse } from 'csv-parse/sync';

/** One line's outcome: its fields, or why it is not CSV. Empty lines are left out. */
export type CsvLine =
  | { line: number; ok: true; fields: string[] }
  | { line: number; ok: false; reason: string };

// Lines are split (and CR dropped) before parsing, so LF is the only record delimiter; a stray CR
// inside a line stays field content instead of splitting the record.
const OPTIONS = { relax_column_count: true, skip_empty_lines: false, record_delimiter: '\n' } as const;

function quotesBalanced(text: string): boolean {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  return count % 2 === 0;
}

function parseOne(line: number, text: string): CsvLine {
  if (!quotesBalanced(text))
    return { line, ok: false, reason: 'malformed CSV: a quoted field is not closed' };
  try {
    const records = parse(text, OPTIONS) as string[][];
    const fields = records[0];
    if (records.length !== 1 || !fields) return { line, ok: false, reason: 'malformed CSV' };
    return { line, ok: true, fields };
  } catch (err) {
    const message = (err as Error).message.replace(/ at line \d+/, '');
    return { line, ok: false, reason: `malformed CSV: ${message}` };
  }
}

/** Parses lines numbered from `firstLine`; blank lines are skipped. */
export function parseCsvLines(firstLine: number, lines: readonly string[]): CsvLine[] {
  const numbers: number[] = [];
  const texts: string[] = [];
  let balanced = true;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text === '') continue;
    numbers.push(firstLine + i);
    texts.push(text);
    if (balanced && !quotesBalanced(text)) balanced = false;
  }
  if (balanced && texts.length > 0) {
    try {
      const records = parse(texts.join('\n'), OPTIONS) as string[][];
      if (records.length === texts.length) {
        return records.map((fields, i) => ({ line: numbers[i] as number, ok: true, fields }));
      }
    } catch {
      // fall through to line by line
    }
  }
  return texts.map((text, i) => parseOne(numbers[i] as number, text));
}
