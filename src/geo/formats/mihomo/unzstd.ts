// Unwraps the zstd envelope of a .mrs file. Frame and block headers are walked here first (RFC
// 8878) so that a hostile header cannot make the decoder allocate or run unboundedly: the
// decompressed size is bounded from the block sizes before fzstd decodes anything.
import { decompress } from 'fzstd';
import { GeoError } from '../../errors.js';
import { xxh64 } from './xxh64.js';
import { ZSTD_MAX_BLOCK } from './zstd-frame.js';

/** The most bytes a .mrs payload may decompress to (16 MiB; the largest real one, geosite cn, is 0.9 MiB). */
export const MAX_PAYLOAD = 16 * 1024 * 1024;

const FRAME_MAGIC = 0xfd2fb528;

/** True when bytes start with the zstd frame magic. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && readU32(bytes, 0) === FRAME_MAGIC;
}

function readU32(b: Uint8Array, p: number): number {
  return (
    ((b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16)) +
    (b[p + 3] as number) * 2 ** 24
  );
}

/** One frame found by the header walk. */
interface FrameSpan {
  readonly start: number;
  readonly end: number;
  /** Offset of the Window_Descriptor byte, or -1 (single segment). */
  readonly windowAt: number;
  readonly window: number;
  /** Frame_Content_Size, or -1 when the header leaves it out. */
  readonly contentSize: number;
  /** Upper bound of the decompressed size (exact when `exact`). */
  readonly bound: number;
  readonly exact: boolean;
  /** Offset of the 4-byte content checksum, or -1. */
  readonly checksumAt: number;
}

/**
 * Decompresses every zstd frame of a file (skippable frames skipped) into one payload. Throws
 * GeoError('mrs_corrupt') naming `name` and the file byte offset of what is wrong.
 */
export function unzstd(bytes: Uint8Array, name: string): Uint8Array {
  const fail = (what: string, at: number): never => {
    throw new GeoError('mrs_corrupt', `${name} byte ${at}: ${what}`);
  };
  const frames: FrameSpan[] = [];
  let total = 0;
  let pos = 0;
  while (pos < bytes.length) {
    if (bytes.length - pos < 4) fail('truncated zstd frame magic', pos);
    const magic = readU32(bytes, pos);
    if (magic >= 0x184d2a50 && magic <= 0x184d2a5f) {
      if (bytes.length - pos < 8) fail('truncated skippable frame header', pos);
      const size = readU32(bytes, pos + 4);
      if (size > bytes.length - pos - 8) fail(`skippable frame of ${size} bytes runs past the end`, pos);
      pos += 8 + size;
      continue;
    }
    if (magic !== FRAME_MAGIC) fail('not a zstd frame (bad magic number)', pos);
    const frame = walkFrame(bytes, pos, fail);
    total += frame.bound;
    if (total > MAX_PAYLOAD) fail(`decompressed size could exceed the ${MAX_PAYLOAD}-byte limit`, pos);
    frames.push(frame);
    pos = frame.end;
  }
  const parts = frames.map((f) => inflate(bytes, f, fail));
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads a frame header and walks its block headers without decoding anything. */
function walkFrame(b: Uint8Array, start: number, fail: (what: string, at: number) => never): FrameSpan {
  let p = start + 4;
  if (p >= b.length) fail('truncated frame header', p);
  const fhd = b[p++] as number;
  if (fhd & 0x08) fail('reserved bit set in the frame header descriptor', p - 1);
  const single = (fhd >> 5) & 1;
  const fcsFlag = fhd >> 6;
  const hasChecksum = (fhd >> 2) & 1;
  const dictBytes = [0, 1, 2, 4][fhd & 3] as number;
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
  const headerEnd = p + (single ? 0 : 1) + dictBytes + fcsBytes;
  if (headerEnd > b.length) fail('truncated frame header', p);
  let window = 0;
  const windowAt = single ? -1 : p;
  if (!single) {
    const wd = b[p++] as number;
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  let dict = 0;
  for (let k = 0; k < dictBytes; k++) dict += (b[p + k] as number) * 256 ** k;
  if (dict !== 0) fail(`frame needs zstd dictionary ${dict}`, p);
  p += dictBytes;
  let contentSize = -1;
  if (fcsBytes > 0) {
    let v = 0;
    for (let k = 0; k < fcsBytes; k++) v += (b[p + k] as number) * 256 ** k;
    contentSize = fcsBytes === 2 ? v + 256 : v;
    if (contentSize > MAX_PAYLOAD) fail(`frame content size ${contentSize} exceeds the limit`, p);
    p += fcsBytes;
  }
  if (single) window = contentSize;
  const blockMax = Math.min(window, ZSTD_MAX_BLOCK);
  let bound = 0;
  let exact = true;
  for (;;) {
    if (b.length - p < 3) fail('truncated block header', p);
    const header = (b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16);
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 3) fail('reserved block type', p);
    if (size > blockMax) fail(`block of ${size} bytes exceeds the block maximum ${blockMax}`, p);
    const payload = type === 1 ? 1 : size;
    if (payload > b.length - p - 3) fail('truncated block', p);
    if (type === 2) {
      bound += blockMax;
      exact = false;
    } else bound += size;
    if (bound > MAX_PAYLOAD) fail(`decompressed size could exceed the ${MAX_PAYLOAD}-byte limit`, p);
    p += 3 + payload;
    if (header & 1) break;
  }
  if (contentSize >= 0 && (exact ? contentSize !== bound : contentSize > bound)) {
    fail(`frame content size ${contentSize} does not match its blocks (${bound} bytes)`, start + 5);
  }
  const checksumAt = hasChecksum ? p : -1;
  if (hasChecksum) {
    if (b.length - p < 4) fail('truncated content checksum', p);
    p += 4;
  }
  return { start, end: p, windowAt, window, contentSize, bound, exact, checksumAt };
}

/** Decodes one walked frame with fzstd and checks its size and checksum. */
function inflate(b: Uint8Array, f: FrameSpan, fail: (what: string, at: number) => never): Uint8Array {
  let frame = b.subarray(f.start, f.end);
  if (f.windowAt >= 0) {
    // fzstd allocates the declared window up front; no match can reach further back than the
    // frame's own output, so a window shrunk to the size bound decodes the same bytes.
    const wd = windowDescriptorFor(Math.min(f.window, Math.max(f.bound, 1024)));
    if (wd < (b[f.windowAt] as number)) {
      frame = frame.slice();
      frame[f.windowAt - f.start] = wd;
    }
  }
  let out: Uint8Array;
  try {
    out = decompress(frame);
  } catch (err) {
    return fail(`zstd: ${(err as Error).message}`, f.start);
  }
  if (out.length > f.bound || (f.contentSize >= 0 && out.length !== f.contentSize)) {
    fail(`frame decodes to ${out.length} bytes, header and blocks say otherwise`, f.start);
  }
  if (f.checksumAt >= 0) {
    const want = readU32(b, f.checksumAt);
    if (Number(xxh64(out) & 0xffffffffn) !== want) fail('content checksum mismatch', f.checksumAt);
  }
  return out;
}

/** The smallest Window_Descriptor byte whose window holds at least n bytes. */
function windowDescriptorFor(n: number): number {
  for (let e = 0; e < 32; e++) {
    const base = 2 ** (10 + e);
    for (let m = 0; m < 8; m++) if (base + (base / 8) * m >= n) return (e << 3) | m;
  }
  return 0xff;
}
