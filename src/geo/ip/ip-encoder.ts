// Writes IP lists as a GeoIPList (geoip.dat) by hand: country_code, then CIDRs (ip bytes, prefix
// left off when 0), inverse_match only when true; same bytes as Go's and protobuf-es's encoders.

import type { IpList } from '../model.js';
import { WireWriter } from '../wire/wire-writer.js';
import type { CidrSet } from './cidr-set.js';

/** Appends one GeoIP message (without its own tag) to the writer. */
export function writeGeoIp(w: WireWriter, list: IpList): void {
  if (list.code !== '') w.stringField(1, list.code);
  for (const cidr of list.cidrs) {
    const start = w.fork();
    if (cidr.ip.length > 0) w.bytesField(1, cidr.ip);
    if (cidr.prefix !== 0) w.uint32Field(2, cidr.prefix);
    w.join(2, start);
  }
  if (list.inverseMatch) w.uint32Field(3, 1);
}

/** Encodes IP lists, in the order given, as the bytes of a geoip.dat file. */
export function encodeGeoIpList(lists: readonly IpList[]): Uint8Array {
  const w = new WireWriter(1 << 20);
  for (const list of lists) {
    const start = w.fork();
    writeGeoIp(w, list);
    w.join(1, start);
  }
  return w.finish();
}

/**
 * Merges each set and writes it straight to GeoIPList bytes, without building Cidr objects: the
 * fast path of `geo build-ip` (same bytes as compileIpLists + encodeGeoIpList). Returns the bytes
 * and the number of CIDRs written.
 */
export function encodeCidrSets(lists: readonly { code: string; set: CidrSet }[]): {
  bytes: Uint8Array;
  cidrs: number;
} {
  const w = new WireWriter(1 << 22);
  let cidrs = 0;
  // CIDR = 0a len ip [10 prefix]; written as raw bytes since its shape is fixed.
  const sink = {
    v4(start: number, prefix: number) {
      cidrs++;
      w.byte(0x12);
      w.byte(prefix === 0 ? 6 : 8);
      w.byte(0x0a);
      w.byte(4);
      w.word32(start);
      if (prefix !== 0) {
        w.byte(0x10);
        w.byte(prefix);
      }
    },
    v6(start: Uint32Array, prefix: number) {
      cidrs++;
      w.byte(0x12);
      w.byte(prefix === 0 ? 18 : prefix < 128 ? 20 : 21);
      w.byte(0x0a);
      w.byte(16);
      for (let k = 0; k < 4; k++) w.word32(start[k] as number);
      if (prefix !== 0) {
        w.byte(0x10);
        w.uint32(prefix);
      }
    },
  };
  for (const { code, set } of lists) {
    const start = w.fork();
    if (code !== '') w.stringField(1, code);
    set.merge(sink);
    w.join(1, start);
  }
  return { bytes: w.finish(), cidrs };
}
