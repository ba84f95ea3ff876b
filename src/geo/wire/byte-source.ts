// Random access to the bytes of a .dat file: from memory, or from a file descriptor with
// positional reads, so a reader can index a 60 MB file by reading a few bytes per entry.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Bytes addressable by offset; read() returns exactly `length` bytes or fewer at the end. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
  /**
   * Like read, but may copy into `scratch` (when it is large enough) instead of allocating; the
   * answer is only good until the next call. Sources in memory answer with a view.
   */
  readReusing?(offset: number, length: number, scratch: Uint8Array): Uint8Array;
  close(): void;
}

/** A source over bytes already in memory. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    readReusing: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    close: () => {
      // memory needs no closing
    },
  };
}

/** A source over a file, read with positional reads on demand. */
export function fileSource(path: string): ByteSource {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  let open = true;
  const readInto = (offset: number, length: number, buf: Uint8Array): Uint8Array => {
    const n = Math.max(0, Math.min(length, size - offset, buf.length));
    let done = 0;
    while (done < n) {
      const got = readSync(fd, buf, done, n - done, offset + done);
      if (got === 0) break;
      done += got;
    }
    return buf.subarray(0, done);
  };
  return {
    size,
    readReusing: (offset, length, scratch) =>
      readInto(offset, length, scratch.length >= length ? scratch : Buffer.allocUnsafe(length)),
    read: (offset, length) =>
      readInto(offset, length, Buffer.allocUnsafe(Math.max(0, Math.min(length, size - offset)))),
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
