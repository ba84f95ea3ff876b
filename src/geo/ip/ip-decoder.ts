// Decodes one GeoIP message from .dat bytes by hand, skipping unknown fields and checking that
// every CIDR is 4 or 16 bytes with a prefix that fits. Errors carry the file offset.
//   scanGeoIp: bytes -> sink.v4(start, prefix) / sink.v6(bytes, offset, prefix), nothing allocated
//              per CIDR (the matcher's lean loading);
//   decodeGeoIp: the same walk into an IpList of Cidr objects (tools, exports, tests).
import type { Cidr, IpList } from '../model.js';
import { WireReader } from '../wire/wire-reader.js';

/** Receives the CIDRs of a GeoIP message in file order, straight from the file's bytes. */
export interface GeoIpSink {
  /** An IPv4 network: its address as a uint32 (host bits as in the file) and prefix. */
  v4(start: number, prefix: number): void;
  /** An IPv6 network: 16 address bytes at bytes[offset] (host bits as in the file) and prefix. */
  v6(bytes: Uint8Array, offset: number, prefix: number): void;
}

/** The scalar fields of a GeoIP message. */
export interface GeoIpHeader {
  readonly code: string;
  readonly inverseMatch: boolean;
}

/**
 * Walks the GeoIP whose fields span bytes[start, end) and hands each CIDR to the sink; base is
 * the file offset of bytes[0] (for errors). Returns the code and inverse_match.
 */
export function scanGeoIp(
  bytes: Uint8Array,
  start: number,
  end: number,
  base: number,
  sink: GeoIpSink,
): GeoIpHeader {
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  let inverseMatch = false;
  while (!r.done()) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) countryCode = r.string();
    else if (field === 2 && wire === 2) {
      const at = r.pos;
      const cidrEnd = r.lengthEnd();
      // The CIDR's own fields, read with the same reader limited to the CIDR.
      const outerEnd = r.end;
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
      r.end = outerEnd;
      if (ipLength !== 4 && ipLength !== 16)
        r.fail(`CIDR address of ${ipLength} bytes (expected 4 or 16)`, at);
      if (prefix > ipLength * 8) r.fail(`CIDR prefix /${prefix} too long for a ${ipLength}-byte address`, at);
      if (ipLength === 4) {
        sink.v4(
          (bytes[ipAt] as number) * 16777216 +
            (((bytes[ipAt + 1] as number) << 16) |
              ((bytes[ipAt + 2] as number) << 8) |
              (bytes[ipAt + 3] as number)),
          prefix,
        );
      } else sink.v6(bytes, ipAt, prefix);
    } else if (field === 3 && wire === 0) inverseMatch = r.int64() !== 0n;
    else if (field === 5 && wire === 2) code = r.string();
    else r.skip(wire);
  }
  return { code: countryCode !== '' ? countryCode : code, inverseMatch };
}

/** Decodes the GeoIP whose fields span bytes[start, end); base is the file offset of bytes[0]. */
export function decodeGeoIp(bytes: Uint8Array, start: number, end: number, base = 0): IpList {
  const cidrs: Cidr[] = [];
  const { code, inverseMatch } = scanGeoIp(bytes, start, end, base, {
    v4: (v, prefix) =>
      cidrs.push({ ip: new Uint8Array([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]), prefix }),
    v6: (b, offset, prefix) => cidrs.push({ ip: new Uint8Array(b.subarray(offset, offset + 16)), prefix }),
  });
  return { code, cidrs, inverseMatch };
}
