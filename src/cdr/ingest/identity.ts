// The deduplication key of a stored CDR, the same whichever source brought the record (a cdr_csv or
// cdr_custom file of any layout, AMI Cdr events, a FreePBX cdr table, HTTP): the call's start and
// the SHA-256 of the fields every one of those sources carries with the same values. So the same
// call arriving through two sources is stored once, and importing a file twice adds nothing.
// The key begins with the start time, so new keys land at the end of the store's unique index
// instead of at random places in it (a random SHA-256 first made 1M-row SQLite inserts 4x slower).
import * as crypto from 'node:crypto';

// crypto.hash (Node >= 20.12) is a one-shot digest, several times cheaper per row than createHash.
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The fields the identity is computed from (a SourceRow, a NewCdrRecord or a stored row's values). */
export interface IdentityFields {
  uniqueid: string;
  start: number;
  duration: number;
  billsec: number;
  src: string;
  dst: string;
  dcontext: string;
  clid: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  disposition: string;
}

/**
 * `<start, 10-digit unix seconds>:<SHA-256 hex>` of uniqueid, start, duration, billsec, src, dst,
 * dcontext, clid, channel, dstchannel, lastapp, lastdata and disposition joined by U+001F. Left out
 * on purpose: answer and end (a FreePBX table has neither, only calldate + duration + billsec),
 * linkedid and sequence (AMI sends them only with [mappings], cdr_csv never), accountcode,
 * amaflags, userfield and peeraccount (not in every layout). Two records of one channel (a forward
 * or a transfer) differ in dstchannel, lastdata or times, so they stay apart.
 */
export function cdrIdentity(row: IdentityFields): string {
  const key = [
    row.uniqueid,
    String(row.start),
    String(row.duration),
    String(row.billsec),
    row.src,
    row.dst,
    row.dcontext,
    row.clid,
    row.channel,
    row.dstchannel,
    row.lastapp,
    row.lastdata,
    row.disposition,
  ].join('\u001f');
  return `${String(Math.max(0, Math.floor(row.start))).padStart(10, '0')}:${sha256Hex(key)}`;
}
