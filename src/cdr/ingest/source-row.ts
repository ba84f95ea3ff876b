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

const INTEGER = /^\d{1,10}$/;

/** Builds a row reader for one layout: column positions are looked up once. */
export function createRowReader(
  layout: Layout,
  parseTime: TimeParser,
): (line: number, fields: string[]) => RowResult {
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

  return (line, fields) => {
    if (fields.length !== expected) {
      return {
        ok: false,
        reason: `has ${fields.length} fields, the layout (${layout.name}) has ${expected}`,
      };
    }
    const text = (i: number): string => (i < 0 ? '' : (fields[i] as string));
    let problem = '';
    const time = (name: string, i: number, required: boolean): number | null => {
      const value = text(i);
      if (value === '') {
        if (required && i >= 0 && !problem) problem = `field ${name}: empty, a time is required`;
        return null;
      }
      const t = parseTime(value);
      if (t === null && !problem) problem = `field ${name}: ${JSON.stringify(value)} is not a time`;
      return t;
    };
    const int = (name: string, i: number): number | null => {
      const value = text(i);
      if (i < 0) return null;
      if (!INTEGER.test(value)) {
        if (!problem) problem = `field ${name}: ${JSON.stringify(value)} is not a whole number`;
        return null;
      }
      return Number(value);
    };
    const start = time('start', pos.start, true);
    const answer = time('answer', pos.answer, false);
    const endField = time('end', pos.end, true);
    const durationField = int('duration', pos.duration);
    const billsecField = int('billsec', pos.billsec);
    const sequence = pos.sequence >= 0 && text(pos.sequence) !== '' ? int('sequence', pos.sequence) : null;
    if (problem || start === null) return { ok: false, reason: problem || 'field start: missing' };
    const end = endField ?? start + (durationField ?? 0);
    return {
      ok: true,
      row: {
        line,
        accountcode: text(pos.accountcode),
        src: text(pos.src),
        dst: text(pos.dst),
        dcontext: text(pos.dcontext),
        clid: text(pos.clid),
        channel: text(pos.channel),
        dstchannel: text(pos.dstchannel),
        lastapp: text(pos.lastapp),
        lastdata: text(pos.lastdata),
        start,
        answer,
        end,
        duration: durationField ?? end - start,
        billsec: billsecField ?? (answer === null ? 0 : Math.max(0, end - answer)),
        disposition: text(pos.disposition),
        amaflags: text(pos.amaflags),
        uniqueid: text(pos.uniqueid),
        userfield: text(pos.userfield),
        peeraccount: text(pos.peeraccount),
        linkedid: text(pos.linkedid),
        sequence,
        initialDestination: text(pos.initialDestination),
        computedDestination: text(pos.computedDestination),
        recordingfile: text(pos.recordingfile),
      },
    };
  };
}
