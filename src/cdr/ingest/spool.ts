// The import's spool: pass 1 writes each good row, already typed and with its identity and dial
// target, one per line; pass 2 reads them back without parsing CSV or times again. Fields are
// separated by U+001F; a row whose text holds U+001F, U+001E or CR (which a line reader strips at
// the end of a line) is written as JSON after a U+001E mark instead.
import type { SourceRow } from './source-row.js';

/** One spooled row. */
export interface SpoolEntry {
  identity: string;
  /** The row's dial target (destination.ts dialTarget), computed once in pass 1. */
  target: string;
  row: SourceRow;
}

const US = '\u001f';
const RS = '\u001e';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the spool's own separators are control characters on purpose
const NEEDS_JSON = /[\u001e\u001f\r]/;

const TEXT_FIELDS = [
  'accountcode',
  'src',
  'dst',
  'dcontext',
  'clid',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'disposition',
  'amaflags',
  'uniqueid',
  'userfield',
  'peeraccount',
  'linkedid',
  'initialDestination',
  'computedDestination',
  'recordingfile',
] as const satisfies ReadonlyArray<keyof SourceRow>;

// No closures below: they run once per row, and the TypeScript loader wraps every closure it
// creates in a naming helper.
function optional(n: number | null): string {
  return n === null ? '' : String(n);
}

function readOptional(s: string | undefined): number | null {
  return s === undefined || s === '' ? null : Number(s);
}

/** One spool line (without its LF). */
export function encodeSpoolEntry(entry: SpoolEntry): string {
  const { row } = entry;
  let texts = '';
  let json = NEEDS_JSON.test(entry.identity) || NEEDS_JSON.test(entry.target);
  for (const key of TEXT_FIELDS) {
    const text = row[key];
    if (NEEDS_JSON.test(text)) json = true;
    texts += US + text;
  }
  if (json) return RS + JSON.stringify(entry);
  return (
    entry.identity +
    US +
    entry.target +
    US +
    row.line +
    US +
    row.start +
    US +
    optional(row.answer) +
    US +
    row.end +
    US +
    row.duration +
    US +
    row.billsec +
    US +
    optional(row.sequence) +
    texts
  );
}

/** Reads back a line written by encodeSpoolEntry. */
export function decodeSpoolEntry(text: string): SpoolEntry {
  if (text.startsWith(RS)) return JSON.parse(text.slice(1)) as SpoolEntry;
  const p = text.split(US);
  return {
    identity: p[0] as string,
    target: p[1] as string,
    row: {
      line: Number(p[2]),
      start: Number(p[3]),
      answer: readOptional(p[4]),
      end: Number(p[5]),
      duration: Number(p[6]),
      billsec: Number(p[7]),
      sequence: readOptional(p[8]),
      accountcode: p[9] as string,
      src: p[10] as string,
      dst: p[11] as string,
      dcontext: p[12] as string,
      clid: p[13] as string,
      channel: p[14] as string,
      dstchannel: p[15] as string,
      lastapp: p[16] as string,
      lastdata: p[17] as string,
      disposition: p[18] as string,
      amaflags: p[19] as string,
      uniqueid: p[20] as string,
      userfield: p[21] as string,
      peeraccount: p[22] as string,
      linkedid: p[23] as string,
      initialDestination: p[24] as string,
      computedDestination: p[25] as string,
      recordingfile: p[26] as string,
    },
  };
}
