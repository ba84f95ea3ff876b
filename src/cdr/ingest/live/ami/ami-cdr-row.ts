// One AMI `Event: Cdr` block -> the import's SourceRow, through the same row reader a CSV line
// goes through (so times, numbers and refusals read alike). cdr_manager's headers are fixed;
// [mappings] in cdr_manager.conf add CDR variables under names the operator chooses, of which
// those named like our columns (LinkedID, PeerAccount, Sequence, RecordingFile, ...) are read.
import type { TimeParser } from '../../asterisk-time.js';
import type { Layout } from '../../columns.js';
import { createRowReader, type RowResult } from '../../source-row.js';
import type { AmiFields } from './ami-parser.js';

/** Our column <- cdr_manager's header (lower-cased), in the layout's order. */
const HEADERS: ReadonlyArray<readonly [column: string, header: string]> = [
  ['accountcode', 'accountcode'],
  ['src', 'source'],
  ['dst', 'destination'],
  ['dcontext', 'destinationcontext'],
  ['clid', 'callerid'],
  ['channel', 'channel'],
  ['dstchannel', 'destinationchannel'],
  ['lastapp', 'lastapplication'],
  ['lastdata', 'lastdata'],
  ['start', 'starttime'],
  ['answer', 'answertime'],
  ['end', 'endtime'],
  ['duration', 'duration'],
  ['billsec', 'billableseconds'],
  ['disposition', 'disposition'],
  ['amaflags', 'amaflags'],
  ['uniqueid', 'uniqueid'],
  ['userfield', 'userfield'],
  // [mappings] extras, matched by name without `_` (e.g. `linkedid => LinkedID`).
  ['peeraccount', 'peeraccount'],
  ['linkedid', 'linkedid'],
  ['sequence', 'sequence'],
  ['initial_destination', 'initialdestination'],
  ['computed_destination', 'computeddestination'],
  ['recordingfile', 'recordingfile'],
];

/** Headers a Cdr event must have to make a record (cdr_manager always sends them). */
const REQUIRED = ['uniqueid', 'channel', 'starttime', 'endtime', 'disposition'];

const LAYOUT: Layout = { name: 'AMI Cdr event', columns: HEADERS.map(([c]) => c) };

/** A block's value of a header, also under its `_`-separated spelling (initial_destination). */
function headerValue(fields: AmiFields, header: string): string | undefined {
  return fields.get(header) ?? fields.get(header.replace(/(initial|computed)/, '$1_'));
}

/** Reads Cdr events with times in one zone. */
export function createAmiCdrReader(parseTime: TimeParser): (fields: AmiFields, where: number) => RowResult {
  const read = createRowReader(LAYOUT, parseTime);
  return (fields, where) => {
    const missing = REQUIRED.filter((h) => fields.get(h) === undefined);
    if (missing.length > 0) return { ok: false, reason: `Cdr event without ${missing.join(', ')}` };
    const values = HEADERS.map(([, header]) => headerValue(fields, header) ?? '');
    return read(where, values);
  };
}
