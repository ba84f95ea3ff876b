// The CDR record model: what ingest stores (NewCdrRecord) and what the pull API and the push job
// send (CdrWireRecord, the 15 fields of DESIGN.md section 5, every one a string but db_id).

/** One call detail record as ingest hands it to the store. Times are unix seconds (UTC). */
export interface NewCdrRecord {
  /** Deduplication key: uniqueid|linkedid|sequence when present, else a hash of the full source row. */
  identity: string;
  /** Asterisk uniqueid (call_id on the wire). */
  uniqueid: string;
  /** Asterisk linkedid, '' when the source has no such column. */
  linkedid: string;
  /** Asterisk CDR sequence number, null when the source has no such column. */
  sequence: number | null;
  accountcode: string;
  /** clid: the caller id as `"Name" <number>`. */
  clid: string;
  src: string;
  dst: string;
  dcontext: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  /** Start of the call, unix seconds. */
  start: number;
  /** Answer time, unix seconds; null when never answered. */
  answer: number | null;
  /** End of the call, unix seconds. */
  end: number;
  duration: number;
  billsec: number;
  /** As Asterisk writes it: ANSWERED, NO ANSWER, BUSY, FAILED, CONGESTION. */
  disposition: string;
  amaflags: string;
  userfield: string;
  peeraccount: string;
  /** The number first dialled for the call (see docs/cdr-mapping.md). */
  initialDestination: string;
  /** Where routing sent the call when that differs from initialDestination, else ''. */
  computedDestination: string;
  recordingUrl: string;
}

/** The names of the wire record's fields, in the order the API writes them. */
export const CDR_WIRE_FIELDS = [
  'db_id',
  'call_id',
  'caller_id',
  'source',
  'destination_context',
  'destination',
  'initial_destination',
  'computed_destination',
  'disposition',
  'timestamp',
  'date',
  'start_time',
  'answer_time',
  'end_time',
  'recording_url',
] as const;

/** One wire field name. */
export type CdrWireField = (typeof CDR_WIRE_FIELDS)[number];

/** A record as the pull API and the push job send it: db_id an integer, every other field a string. */
export type CdrWireRecord = { db_id: number } & { [K in Exclude<CdrWireField, 'db_id'>]: string };
