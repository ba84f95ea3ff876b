// What the table poller needs of a CDR database, read-only: the table's columns, and the rows whose
// call ended at or after a time, in calldate order, a page at a time. mysql-cdr-table.ts and
// postgres-cdr-table.ts implement it; times cross this boundary as wall-clock text
// `YYYY-MM-DD HH:MM:SS` in the table's own terms, so no time zone is applied on the way.

/** The columns of the FreePBX/Asterisk cdr table the poller reads when present. */
export const CDR_TABLE_COLUMNS = [
  'calldate',
  'clid',
  'src',
  'dst',
  'dcontext',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'duration',
  'billsec',
  'disposition',
  'amaflags',
  'accountcode',
  'uniqueid',
  'userfield',
  'did',
  'recordingfile',
  'cnum',
  'cnam',
  'linkedid',
  'peeraccount',
  'sequence',
] as const;

/** Columns without which a table is not a CDR table. */
export const REQUIRED_TABLE_COLUMNS = ['calldate', 'src', 'dst', 'disposition'] as const;

/** One row as read: the present columns by name, plus calldate and end as wall-clock text. */
export interface TableRow {
  values: Record<string, unknown>;
  /** calldate as `YYYY-MM-DD HH:MM:SS`. */
  calldate: string;
  /** calldate + duration, the same way (calldate when there is no duration column). */
  end: string;
}

/** What a reader found in the table at connect. */
export interface TableShape {
  /** The CDR_TABLE_COLUMNS present, lower case. */
  columns: string[];
  /** An auto-increment / serial column, when the table has one (a row key, not an order). */
  idColumn: string | null;
  /** calldate is timestamptz: its text is UTC whatever the source's tz says. */
  calldateIsInstant: boolean;
}

/** A page request: calldate >= from (when given), end >= fromEnd (when given), calldate order. */
export interface PageQuery {
  from: string | null;
  fromEnd: string | null;
  limit: number;
}

/** A connected, read-only reader of one CDR table. */
export interface CdrTableReader {
  readonly shape: TableShape;
  read(q: PageQuery): Promise<TableRow[]>;
  close(): Promise<void>;
}

/** Quotes a possibly schema-qualified name with `quote` (checked as [A-Za-z0-9_.] beforehand). */
export function quoteName(name: string, quote: string): string {
  return name
    .split('.')
    .map((p) => `${quote}${p}${quote}`)
    .join('.');
}
