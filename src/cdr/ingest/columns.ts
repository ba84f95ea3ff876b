// The column layouts a CDR CSV can have: the cdr_csv layouts Asterisk writes (16 base columns, then
// uniqueid and/or userfield per loguniqueid / loguserfield), the 21-column cdr_custom layout with
// peeraccount, linkedid and sequence, and any `--columns` list of cdr_custom field names.
import { CdrImportError } from './errors.js';

/** The cdr_csv base columns in the order cdr/cdr_csv.c build_csv_record() writes them. */
export const CDR_CSV_BASE_COLUMNS = [
  'accountcode',
  'src',
  'dst',
  'dcontext',
  'clid',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'start',
  'answer',
  'end',
  'duration',
  'billsec',
  'disposition',
  'amaflags',
] as const;

/** Column names the mapping understands; any other name in `--columns` is read and ignored. */
export const KNOWN_COLUMNS = [
  ...CDR_CSV_BASE_COLUMNS,
  'uniqueid',
  'userfield',
  'peeraccount',
  'linkedid',
  'sequence',
  'initial_destination',
  'computed_destination',
  'recordingfile',
] as const;

/** One understood column name. */
export type KnownColumn = (typeof KNOWN_COLUMNS)[number];

/** A column layout: the name of each field position, and how it was chosen. */
export interface Layout {
  /** For messages and the summary, e.g. "cdr_csv 18 columns" or "--columns (21)". */
  name: string;
  columns: readonly string[];
}

const layout = (name: string, columns: readonly string[]): Layout => ({ name, columns });

/** cdr_csv with neither loguniqueid nor loguserfield. */
export const CSV_16 = layout('cdr_csv 16 columns', CDR_CSV_BASE_COLUMNS);
/** cdr_csv with loguniqueid only. */
export const CSV_17_UNIQUEID = layout('cdr_csv 17 columns (uniqueid)', [...CDR_CSV_BASE_COLUMNS, 'uniqueid']);
/** cdr_csv with loguserfield only. */
export const CSV_17_USERFIELD = layout('cdr_csv 17 columns (userfield)', [
  ...CDR_CSV_BASE_COLUMNS,
  'userfield',
]);
/** cdr_csv with loguniqueid and loguserfield (the shipped cdr.conf.sample choice). */
export const CSV_18 = layout('cdr_csv 18 columns', [...CDR_CSV_BASE_COLUMNS, 'uniqueid', 'userfield']);
/** cdr_custom with every post-1.8 column: peeraccount, linkedid, sequence. */
export const CUSTOM_21 = layout('cdr_custom 21 columns', [
  ...CDR_CSV_BASE_COLUMNS,
  'uniqueid',
  'userfield',
  'peeraccount',
  'linkedid',
  'sequence',
]);

// An Asterisk uniqueid: [systemname-]epoch.counter, e.g. 1795322858.1 or pbx1-1795322858.1.
const UNIQUEID = /^(?:[\w.-]*-)?\d{9,}\.\d+$/;

/**
 * The layout of a file whose first record has `fields`, or null when its field count is not one
 * Asterisk writes. 17 columns is uniqueid or userfield: a value shaped like a uniqueid decides.
 */
export function detectLayout(fields: readonly string[]): Layout | null {
  switch (fields.length) {
    case 16:
      return CSV_16;
    case 17:
      return UNIQUEID.test(fields[16] ?? '') ? CSV_17_UNIQUEID : CSV_17_USERFIELD;
    case 18:
      return CSV_18;
    case 21:
      return CUSTOM_21;
    default:
      return null;
  }
}

/** Parses `--columns a,b,c` (cdr_custom field names, optionally written `${CDR(name)}`). */
export function parseColumnsOption(text: string): Layout {
  const columns = text.split(',').map((raw, i) => {
    const name = raw
      .trim()
      .replace(/^\$\{CDR\((\w+)\)\}$/i, '$1')
      .toLowerCase();
    if (!/^\w+$/.test(name)) {
      throw new CdrImportError(
        'bad_columns',
        `--columns: item ${i + 1} ${JSON.stringify(raw)} is not a field name`,
      );
    }
    return name;
  });
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) throw new CdrImportError('bad_columns', `--columns: ${c} appears twice`);
    seen.add(c);
  }
  for (const required of ['start'] as const) {
    if (!seen.has(required)) throw new CdrImportError('bad_columns', `--columns must include ${required}`);
  }
  return layout(`--columns (${columns.length})`, columns);
}
