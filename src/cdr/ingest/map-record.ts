// SourceRow (what the CSV said) -> NewCdrRecord (what the store keeps), given the derived
// destinations. docs/cdr-mapping.md is the table of every field.
import type { NewCdrRecord } from '../record.js';
import { computedDestination, dialTarget } from './destination.js';
import type { SourceRow } from './source-row.js';

/**
 * The stored record of one source row. `groupInitial` is the call's first number (GroupIndex),
 * `target` the row's dial target when already known; initial_destination / computed_destination
 * CDR variables in the row win when not empty.
 */
export function toNewCdrRecord(
  row: SourceRow,
  identity: string,
  groupInitial: string,
  target: string = dialTarget(row.dstchannel, row.lastapp, row.lastdata),
): NewCdrRecord {
  const initial = row.initialDestination || groupInitial;
  const computed = row.computedDestination || computedDestination(target, row.dst, initial);
  return {
    identity,
    uniqueid: row.uniqueid,
    linkedid: row.linkedid,
    sequence: row.sequence,
    accountcode: row.accountcode,
    clid: row.clid,
    src: row.src,
    dst: row.dst,
    dcontext: row.dcontext,
    channel: row.channel,
    dstchannel: row.dstchannel,
    lastapp: row.lastapp,
    lastdata: row.lastdata,
    start: row.start,
    answer: row.answer,
    end: row.end,
    duration: row.duration,
    billsec: row.billsec,
    disposition: row.disposition,
    amaflags: row.amaflags,
    userfield: row.userfield,
    peeraccount: row.peeraccount,
    initialDestination: initial,
    computedDestination: computed,
    recordingUrl: row.recordingfile,
  };
}
