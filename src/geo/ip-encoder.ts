// Writes IP lists as a GeoIPList (geoip.dat) by hand: country_code, then CIDRs (ip bytes, prefix
// left off when 0), inverse_match only when true; same bytes as Go's and protobuf-es's encoders.
import type { IpList } from './model.js';
import { WireWriter } from './wire-writer.js';

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
