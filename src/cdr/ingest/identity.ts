// The deduplication key of an imported CDR: Asterisk's own triple when the source has all three
// columns, else a hash of the whole row, so that importing a file twice adds nothing.
import { createHash } from 'node:crypto';

/**
 * `uniqueid|linkedid|sequence` when all three are present (sequence is unique per record within a
 * linkedid). Without sequence, uniqueid repeats across the records of one channel (a forward or a
 * transfer writes two), so the key is then `sha256:` + the SHA-256 of the row's fields as read
 * (after CSV unquoting and decoding; times as written), joined by U+001F.
 */
export function cdrIdentity(
  row: { uniqueid: string; linkedid: string; sequence: number | null },
  fields: readonly string[],
): string {
  if (row.uniqueid !== '' && row.linkedid !== '' && row.sequence !== null) {
    return `${row.uniqueid}|${row.linkedid}|${row.sequence}`;
  }
  return `sha256:${createHash('sha256').update(fields.join('\u001f')).digest('hex')}`;
}
