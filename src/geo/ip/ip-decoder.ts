// Decodes one GeoIP message from .dat bytes by hand, skipping unknown fields and checking that
// every CIDR is 4 or 16 bytes with a prefix that fits. Errors carry the file offset.
//   scanGeoIp: bytes -> batches of networks in typed arrays -> sink.v4 / sink.v6, nothing
//              allocated per CIDR (the matcher's lean loading);
//   decodeGeoIp: the same walk into an IpList of Cidr objects (tools, exports, tests).
// CIDRs in the encoding every builder writes (address then prefix, one-byte lengths) are read by
// a fast path in the scan loop itself; anything else goes through the general field reader.
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
  const starts4 = new Uint32Array(BATCH);
  const prefixes4 = new Uint8Array(BATCH);
  const words6 = new Uint32Array(BATCH * 4);
  const prefixes6 = new Uint8Array(BATCH);
  let n4 = 0;
  let n6 = 0;
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  let inverseMatch = false;
  let pos = start;
  while (pos < end) {
    // The CIDR at pos, when it is one: where its address is, its length (4 or 16) and prefix.
    let ipAt = -1;
    let ipLength = 0;
    let prefix = 0;
    // Fast path: tag 0x12, a one-byte length, then 0x0a 0x04|0x10 address [0x10 prefix], all
    // inside the message. Prefix 0 is omitted by proto3 writers (length 6 / 18).
    if (bytes[pos] === 0x12 && bytes[pos + 2] === 0x0a) {
      const length = bytes[pos + 1] as number;
      const size = bytes[pos + 3] as number;
      if (
        pos + 2 + length <= end &&
        (size === 4 || size === 16) &&
        (length === size + 4 || length === size + 2)
      ) {
        const p = length === size + 4 ? (bytes[pos + 5 + size] as number) : 0;
        if (length === size + 2 || (bytes[pos + 4 + size] === 0x10 && p <= size * 8 && p < 0x80)) {
          ipAt = pos + 4;
          ipLength = size;
          prefix = p;
          pos += 2 + length;
        }
      }
    }
    if (ipAt === -1) {
      // General path: one field through the checked reader.
      r.pos = pos;
      const tag = r.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === 2 && wire === 2) {
        const at = r.pos;
        const cidrEnd = r.lengthEnd();
        // The CIDR's own fields, read with the same reader limited to the CIDR.
        r.end = cidrEnd;
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
        if (prefix > ipLength * 8)
          r.fail(`CIDR prefix /${prefix} too long for a ${ipLength}-byte address`, at);
      } else if (field === 1 && wire === 2) countryCode = r.string();
      else if (field === 3 && wire === 0) inverseMatch = r.int64() !== 0n;
      else if (field === 5 && wire === 2) code = r.string();
      else r.skip(wire);
      pos = r.pos;
      if (ipAt === -1) continue;
    }
    // Into the family's batch; the other family's batch goes first (file order is kept).
    if (ipLength === 4) {
      if (n6 > 0) {
        sink.v6(words6, prefixes6, n6);
        n6 = 0;
      }
      starts4[n4] =
        (bytes[ipAt] as number) * 16777216 +
        (((bytes[ipAt + 1] as number) << 16) |
          ((bytes[ipAt + 2] as number) << 8) |
          (bytes[ipAt + 3] as number));
      prefixes4[n4++] = prefix;
      if (n4 === BATCH) {
        sink.v4(starts4, prefixes4, n4);
        n4 = 0;
      }
    } else {
      if (n4 > 0) {
        sink.v4(starts4, prefixes4, n4);
        n4 = 0;
      }
      for (let k = 0; k < 4; k++) {
        const b = ipAt + k * 4;
        words6[n6 * 4 + k] =
          (((bytes[b] as number) << 24) |
            ((bytes[b + 1] as number) << 16) |
            ((bytes[b + 2] as number) << 8) |
            (bytes[b + 3] as number)) >>>
          0;
      }
      prefixes6[n6++] = prefix;
      if (n6 === BATCH) {
        sink.v6(words6, prefixes6, n6);
        n6 = 0;
      }
    }
  }
  if (n4 > 0) sink.v4(starts4, prefixes4, n4);
  if (n6 > 0) sink.v6(words6, prefixes6, n6);
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
