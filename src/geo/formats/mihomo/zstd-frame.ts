// Wraps bytes in one spec-conformant zstd frame (RFC 8878) made of Raw blocks: no compression,
// but any zstd decoder reads it. The one place to swap in a real compressor later.
import { xxh64 } from './xxh64.js';

/** The zstd frame magic number, as the four bytes that start a frame. */
export const ZSTD_MAGIC = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd);
/** The largest block a zstd frame may hold (Block_Maximum_Size). */
export const ZSTD_MAX_BLOCK = 128 * 1024;

/**
 * One zstd frame holding `content`: single-segment header with the content size, Raw blocks of
 * at most 128 KiB (one empty block for empty content), and the XXH64 content checksum.
 */
export function zstdFrame(content: Uint8Array): Uint8Array {
  const n = content.length;
  // Frame_Content_Size field: 1 byte below 256, 2 bytes (minus 256) up to 65791, else 4 or 8.
  const fcsFlag = n < 256 ? 0 : n < 65536 + 256 ? 1 : n <= 0xffffffff ? 2 : 3;
  const fcsBytes = [1, 2, 4, 8][fcsFlag] as number;
  const blocks = Math.max(1, Math.ceil(n / ZSTD_MAX_BLOCK));
  const out = new Uint8Array(4 + 1 + fcsBytes + blocks * 3 + n + 4);
  const view = new DataView(out.buffer);
  out.set(ZSTD_MAGIC, 0);
  // Frame_Header_Descriptor: FCS flag, Single_Segment, Content_Checksum; no dictionary.
  out[4] = (fcsFlag << 6) | 0x20 | 0x04;
  let p = 5;
  if (fcsFlag === 0) out[p] = n;
  else if (fcsFlag === 1) view.setUint16(p, n - 256, true);
  else if (fcsFlag === 2) view.setUint32(p, n, true);
  else view.setBigUint64(p, BigInt(n), true);
  p += fcsBytes;
  for (let b = 0; b < blocks; b++) {
    const from = b * ZSTD_MAX_BLOCK;
    const size = Math.min(ZSTD_MAX_BLOCK, n - from);
    // Block_Header: Last_Block bit, Block_Type 0 (Raw), Block_Size; 3 bytes little-endian.
    const header = (size << 3) | (b === blocks - 1 ? 1 : 0);
    out[p] = header & 0xff;
    out[p + 1] = (header >>> 8) & 0xff;
    out[p + 2] = (header >>> 16) & 0xff;
    out.set(content.subarray(from, from + size), p + 3);
    p += 3 + size;
  }
  view.setUint32(p, Number(xxh64(content) & 0xffffffffn), true);
  return out;
}
