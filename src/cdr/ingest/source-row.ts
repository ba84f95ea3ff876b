// One CSV line checked against its layout and typed: the Asterisk columns by name, times as unix
// seconds, integers as numbers. A line that does not fit gives a reason naming the field, so the
// import can report "file:line: field start: ..." and skip it.

import type { TimeParser } from './asterisk-time.js';
import type { Layout } from './columns.js';

/** The Asterisk fields of one CDR line, typed; '' (or null) for a column the layout lacks. */
export interface SourceRow {
  line: number;
  accountcode: string;
  src: string;
  dst: string;
  dcontext: string;
  clid: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  start: number;
  answer: number | null;
  end: number;
  duration: number;
  billsec: number;
  disposition: string;
  amaflags: string;
  uniqueid: string;
  userfield: string;
  peeraccount: string;
  linkedid: string;
  sequence: number | null;
  /** CDR variables of these names, when a --columns layout carries them. */
  initialDestination: string;
  computedDestination: string;
  recordingfile: string;
}

/** A typed row, or why the line was refused. */
export type RowResult = { ok: true; row: SourceRow } | { ok: false; reason: string };

/** Reads one line's fields (numbered `line`) into a typed row. */
export type RowReader = (line: number, fields: string[]) => RowResult;

const INTEGER = /^\d{1,10}$/;

/** Builds a row reader for one layout: column positions are looked up once. */
export function createRowReader(layout: Layout, parseTime: TimeParser): RowReader {
  const index = new Map(layout.columns.map((c, i) => [c, i] as const));
  const at = (name: string): number => index.get(name) ?? -1;
  const pos = {
    accountcode: at('accountcode'),
    src: at('src'),
    dst: at('dst'),
    dcontext: at('dcontext'),
    clid: at('clid'),
    channel: at('channel'),
    dstchannel: at('dstchannel'),
    lastapp: at('lastapp'),
    lastdata: at('lastdata'),
    start: at('start'),
    answer: at('answer'),
    end: at('end'),
    duration: at('duration'),
    billsec: at('billsec'),
    disposition: at('disposition'),
    amaflags: at('amaflags'),
    uniqueid: at('uniqueid'),
    userfield: at('userfield'),
    peeraccount: at('peeraccount'),
    linkedid: at('linkedid'),
    sequence: at('sequence'),
    initialDestination: at('initial_destination'),
    computedDestination: at('computed_destination'),
    recordingfile: at('recordingfile'),
  };
  const expected = layout.columns.length;
  const text = (fields: string[], i: number): string => (i < 0 ? '' : (fields[i] as string));

  return (line, fields) => {
    if (fields.length !== expected) {
      return {
        ok: false,
        reason: `has ${fields.length} fields, the layout (${layout.name}) has ${expected}`,
      };
    }
    const start = readTime(parseTime, 'start', text(fields, pos.start), pos.start >= 0);
    if (typeof start === 'string') return { ok: false, reason: start };
    const answer = readTime(parseTime, 'answer', text(fields, pos.answer), false);
    if (typeof answer === 'string') return { ok: false, reason: answer };
    const endField = readTime(parseTime, 'end', text(fields, pos.end), pos.end >= 0);
    if (typeof endField === 'string') return { ok: false, reason: endField };
    const durationField = readInt('duration', text(fields, pos.duration), pos.duration >= 0);
    if (typeof durationField === 'string') return { ok: false, reason: durationField };
    const billsecField = readInt('billsec', text(fields, pos.billsec), pos.billsec >= 0);
    if (typeof billsecField === 'string') return { ok: false, reason: billsecField };
    const sequenceText = text(fields, pos.sequence);
    const sequence = readInt('sequence', sequenceText, sequenceText !== '');
    if (typeof sequence === 'string') return { ok: false, reason: sequence };
    if (start === null) return { ok: false, reason: 'field start: missing' };
    const end = endField ?? start + (durationField ?? 0);
    return {
      ok: true,
      row: {
        line,
        accountcode: text(fields, pos.accountcode),
        src: text(fields, pos.src),
        dst: text(fields, pos.dst),
        dcontext: text(fields, pos.dcontext),
        clid: text(fields, pos.clid),
        channel: text(fields, pos.channel),
        dstchannel: text(fields, pos.dstchannel),
        lastapp: text(fields, pos.lastapp),
        lastdata: text(fields, pos.lastdata),
        start,
        answer,
        end,
        duration: durationField ?? end - start,
        billsec: billsecField ?? (answer === null ? 0 : Math.max(0, end - answer)),
        disposition: text(fields, pos.disposition),
        amaflags: text(fields, pos.amaflags),
        uniqueid: text(fields, pos.uniqueid),
        userfield: text(fields, pos.userfield),
        peeraccount: text(fields, pos.peeraccount),
        linkedid: text(fields, pos.linkedid),
        sequence,
        initialDestination: text(fields, pos.initialDestination),
        computedDestination: text(fields, pos.computedDestination),
        recordingfile: text(fields, pos.recordingfile),
      },
    };
  };
}

// A time field: seconds, null when empty and optional, or the reason it is refused.
function readTime(
  parseTime: TimeParser,
  name: string,
  value: string,
  required: boolean,
): number | null | string {
  if (value === '') return required ? `field ${name}: empty, a time is required` : null;
  return parseTime(value) ?? `field ${name}: ${JSON.stringify(value)} is not a time`;
}

// A whole-number field: the number, null when the column is absent, or the reason it is refused.
function readInt(name: string, value: string, present: boolean): number | null | string {
  if (!present) return null;
  return INTEGER.test(value)
    ? Number(value)
    : `field ${name}: ${JSON.stringify(value)} is not a whole number`;
}
