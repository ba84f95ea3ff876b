// The identity of a followed file beyond its inode: the SHA-256 of its first bytes (up to 4 KiB,
// fixed once read). A Master.csv line carries a uniqueid and times, so two files with the same
// head are the same file; an inode alone is reused after a file is deleted.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/** How many leading bytes identify a file (fewer while the file is shorter). */
export const HEAD_BYTES = 4096;

/** The SHA-256 (hex) of the file's first `length` bytes, or null when it has fewer. */
export async function headHash(handle: FileHandle, length: number): Promise<string | null> {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buf, got, length - got, got);
    if (bytesRead === 0) return null;
    got += bytesRead;
  }
  return createHash('sha256').update(buf).digest('hex');
}
