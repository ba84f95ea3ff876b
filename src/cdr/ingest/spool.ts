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

const optional = (n: number | null): string => (n === null ? '' : String(n));
const readOptional = (s: string | undefined): number | null =>
  s === undefined || s === '' ? null : Number(s);

/** One spool line (without its LF). */
export function encodeSpoolEntry(entry: SpoolEntry): string {
  const { row } = entry;
  const texts = TEXT_FIELDS.map((k) => row[k]);
  if (
    NEEDS_JSON.test(entry.identity) ||
    NEEDS_JSON.test(entry.target) ||
    texts.some((t) => NEEDS_JSON.test(t))
  ) {
    return RS + JSON.stringify(entry);
  }
  return [
    entry.identity,
    entry.target,
    row.line,
    row.start,
    optional(row.answer),
    row.end,
    row.duration,
    row.billsec,
    optional(row.sequence),
    ...texts,
  ].join(US);
}

/** Reads back a line written by encodeSpoolEntry. */
export function decodeSpoolEntry(text: string): SpoolEntry {
  if (text.startsWith(RS)) return JSON.parse(text.slice(1)) as SpoolEntry;
  const p = text.split(US);
  const t = (i: number): string => p[i] as string;
  return {
    identity: t(0),
    target: t(1),
    row: {
      line: Number(t(2)),
      start: Number(t(3)),
      answer: readOptional(p[4]),
      end: Number(t(5)),
      duration: Number(t(6)),
      billsec: Number(t(7)),
      sequence: readOptional(p[8]),
      accountcode: t(9),
      src: t(10),
      dst: t(11),
      dcontext: t(12),
      clid: t(13),
      channel: t(14),
      dstchannel: t(15),
      lastapp: t(16),
      lastdata: t(17),
      disposition: t(18),
      amaflags: t(19),
      uniqueid: t(20),
      userfield: t(21),
      peeraccount: t(22),
      linkedid: t(23),
      initialDestination: t(24),
      computedDestination: t(25),
      recordingfile: t(26),
    },
  };
}
