// Decodes one GeoIP message from .dat bytes by hand, skipping unknown fields and checking that
// every CIDR is 4 or 16 bytes with a prefix that fits. Errors carry the file offset.
//   scanGeoIp: bytes -> batches of networks in typed arrays -> sink.v4 / sink.v6, nothing
//              allocated per CIDR (the matcher's lean loading);
//   decodeGeoIp: the same walk into an IpList of Cidr objects (tools, exports, tests).
// CIDRs in the encoding every builder writes (address then prefix, one-byte lengths) are read in
// runs by a small loop per family; anything else goes through the general field reader.
import type { Cidr, IpList } from '../model.js';
import { WireReader } from '../wire/wire-reader.js';

/**
 * Receives the CIDRs of a GeoIP message in file order, straight from the file's bytes, a batch
 * at a time (the arrays are reused: copy what you keep). Networks keep their host bits as in the
 * file. Batches of the two families arrive in file order too: a batch of one family is handed
 * over before a network of the other family follows it.
 */
export interface GeoIpSink {
  /** IPv4 networks k < n: starts[k] as a uint32 and prefixes[k]. */
  v4(starts: Uint32Array, prefixes: Uint8Array, n: number): void;
  /** IPv6 networks k < n: words[4k..4k+3] (big-endian uint32 words) and prefixes[k]. */
  v6(words: Uint32Array, prefixes: Uint8Array, n: number): void;
}

/** The scalar fields of a GeoIP message. */
export interface GeoIpHeader {
  readonly code: string;
  readonly inverseMatch: boolean;
}

/** Networks per batch handed to a sink. */
const BATCH = 1024;

/**
 * The two families' batches on their way to a sink. A batch of one family is handed over before
 * a network of the other is added, so the sink sees the file's order.
 */
class Batches {
  readonly starts4 = new Uint32Array(BATCH);
  readonly prefixes4 = new Uint8Array(BATCH);
  n4 = 0;
  readonly words6 = new Uint32Array(BATCH * 4);
  readonly prefixes6 = new Uint8Array(BATCH);
  n6 = 0;

  constructor(readonly sink: GeoIpSink) {}

  flush4(): void {
    if (this.n4 > 0) this.sink.v4(this.starts4, this.prefixes4, this.n4);
    this.n4 = 0;
  }

  flush6(): void {
    if (this.n6 > 0) this.sink.v6(this.words6, this.prefixes6, this.n6);
    this.n6 = 0;
  }

  /** Adds the network whose 4 or 16 address bytes are at bytes[at]. */
  add(bytes: Uint8Array, at: number, length: number, prefix: number): void {
    if (length === 4) {
      this.flush6();
      this.starts4[this.n4] = uint32At(bytes, at);
      this.prefixes4[this.n4++] = prefix;
      if (this.n4 === BATCH) this.flush4();
    } else {
      this.flush4();
      const o = this.n6 * 4;
      for (let k = 0; k < 4; k++) this.words6[o + k] = uint32At(bytes, at + k * 4);
      this.prefixes6[this.n6++] = prefix;
      if (this.n6 === BATCH) this.flush6();
    }
  }
}

/**
 * The big-endian 32 bits at bytes[at], as an int32 (stored into a Uint32Array they read back as
 * the uint32): V8 keeps an int32 unboxed, where a uint32 from 2^31 up would make it recompile
 * code that first saw only smaller ones.
 */
function uint32At(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) << 24) |
    ((bytes[at + 1] as number) << 16) |
    ((bytes[at + 2] as number) << 8) |
    (bytes[at + 3] as number)
  );
}

/**
 * Takes the IPv4 CIDRs from pos on while they are in the encoding every builder writes (tag
 * 0x12, one-byte length, 0x0a 0x04 address, then 0x10 and a one-byte prefix unless the prefix is
 * 0, which proto3 writers omit); returns where the first other field starts. One small loop per
 * family: V8 compiles each for the one shape it sees.
 */
function fastV4(bytes: Uint8Array, from: number, end: number, b: Batches): number {
  let pos = from;
  if (pos < end && bytes[pos] === 0x12) b.flush6();
  const starts = b.starts4;
  const prefixes = b.prefixes4;
  let n = b.n4;
  while (pos + 8 <= end && bytes[pos] === 0x12 && bytes[pos + 2] === 0x0a && bytes[pos + 3] === 4) {
    const length = bytes[pos + 1] as number;
    let prefix = 0;
    if (length === 8) {
      prefix = bytes[pos + 9] as number;
      if (pos + 10 > end || bytes[pos + 8] !== 0x10 || prefix > 32) break;
    } else if (length !== 6) break;
    starts[n] = uint32At(bytes, pos + 4);
    prefixes[n++] = prefix;
    pos += 2 + length;
    // A full batch ends the call: the caller comes back for the rest (a loop that never runs
    // long is compiled between calls, never replaced while it runs).
    if (n === BATCH) {
      b.n4 = n;
      b.flush4();
      return pos;
    }
  }
  b.n4 = n;
  return pos;
}

/** As fastV4 for IPv6 CIDRs (0x0a 0x10 and 16 address bytes; a one-byte prefix up to 127). */
function fastV6(bytes: Uint8Array, from: number, end: number, b: Batches): number {
  let pos = from;
  if (pos < end && bytes[pos] === 0x12) b.flush4();
  const words = b.words6;
  const prefixes = b.prefixes6;
  let n = b.n6;
  while (pos + 20 <= end && bytes[pos] === 0x12 && bytes[pos + 2] === 0x0a && bytes[pos + 3] === 16) {
    const length = bytes[pos + 1] as number;
    let prefix = 0;
    if (length === 20) {
      prefix = bytes[pos + 21] as number;
      if (pos + 22 > end || bytes[pos + 20] !== 0x10 || prefix > 127) break;
    } else if (length !== 18) break;
    const o = n * 4;
    words[o] = uint32At(bytes, pos + 4);
    words[o + 1] = uint32At(bytes, pos + 8);
    words[o + 2] = uint32At(bytes, pos + 12);
    words[o + 3] = uint32At(bytes, pos + 16);
    prefixes[n++] = prefix;
    pos += 2 + length;
    // A full batch ends the call: the caller comes back for the rest (a loop that never runs
    // long is compiled between calls, never replaced while it runs).
    if (n === BATCH) {
      b.n6 = n;
      b.flush6();
      return pos;
    }
  }
  b.n6 = n;
  return pos;
}

/**
 * Walks the GeoIP whose fields span bytes[start, end) and hands its CIDRs to the sink; base is
 * the file offset of bytes[0] (for errors). Returns the code and inverse_match.
 */
export function scanGeoIp(
  bytes: Uint8Array,
  start: number,
  end: number,
  base: number,
  sink: GeoIpSink,
): GeoIpHeader {
  const b = new Batches(sink);
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  let inverseMatch = false;
  let pos = start;
  while (pos < end) {
    // Runs of CIDRs in the usual encoding, a family at a time.
    if (bytes[pos] === 0x12 && bytes[pos + 2] === 0x0a) {
      const next = bytes[pos + 3] === 4 ? fastV4(bytes, pos, end, b) : fastV6(bytes, pos, end, b);
      if (next !== pos) {
        pos = next;
        continue;
      }
    }
    // Anything else: one field through the checked reader.
    r.pos = pos;
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 2 && wire === 2) {
      const at = r.pos;
      const cidrEnd = r.lengthEnd();
      // The CIDR's own fields, read with the same reader limited to the CIDR.
      r.end = cidrEnd;
      let ipAt = -1;
      let ipLength = 0;
      let prefix = 0;
      while (!r.done()) {
        const t = r.uint32();
        if (t === 0x0a) {
          const e = r.lengthEnd();
          ipAt = r.pos;
          ipLength = e - r.pos;
          r.pos = e;
        } else if (t === 0x10) prefix = r.uint32();
        else r.skip(t & 7);
      }
      r.end = end;
      if (ipLength !== 4 && ipLength !== 16)
        r.fail(`CIDR address of ${ipLength} bytes (expected 4 or 16)`, at);
      if (prefix > ipLength * 8) r.fail(`CIDR prefix /${prefix} too long for a ${ipLength}-byte address`, at);
      b.add(bytes, ipAt, ipLength, prefix);
    } else if (field === 1 && wire === 2) countryCode = r.string();
    else if (field === 3 && wire === 0) inverseMatch = r.int64() !== 0n;
    else if (field === 5 && wire === 2) code = r.string();
    else r.skip(wire);
    pos = r.pos;
  }
  b.flush4();
  b.flush6();
  return { code: countryCode !== '' ? countryCode : code, inverseMatch };
}

/** Decodes the GeoIP whose fields span bytes[start, end); base is the file offset of bytes[0]. */
export function decodeGeoIp(bytes: Uint8Array, start: number, end: number, base = 0): IpList {
  const cidrs: Cidr[] = [];
  const { code, inverseMatch } = scanGeoIp(bytes, start, end, base, {
    v4: (starts, prefixes, n) => {
      for (let k = 0; k < n; k++) {
        const v = starts[k] as number;
        cidrs.push({
          ip: new Uint8Array([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]),
          prefix: prefixes[k] as number,
        });
      }
    },
    v6: (words, prefixes, n) => {
      for (let k = 0; k < n; k++) {
        const ip = new Uint8Array(16);
        for (let j = 0; j < 4; j++) {
          const w = words[k * 4 + j] as number;
          ip[j * 4] = w >>> 24;
          ip[j * 4 + 1] = (w >>> 16) & 255;
          ip[j * 4 + 2] = (w >>> 8) & 255;
          ip[j * 4 + 3] = w & 255;
        }
        cidrs.push({ ip, prefix: prefixes[k] as number });
      }
    },
  });
  return { code, cidrs, inverseMatch };
}
