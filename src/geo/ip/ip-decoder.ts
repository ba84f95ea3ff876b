// Decodes one GeoIP message from .dat bytes by hand, skipping unknown fields and checking that
// every CIDR is 4 or 16 bytes with a prefix that fits. Errors carry the file offset.
import type { Cidr, IpList } from '../model.js';
import { WireReader } from '../wire/wire-reader.js';

/** Decodes the GeoIP whose fields span bytes[start, end); base is the file offset of bytes[0]. */
export function decodeGeoIp(bytes: Uint8Array, start: number, end: number, base = 0): IpList {
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  let inverseMatch = false;
  const cidrs: Cidr[] = [];
  while (!r.done()) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) countryCode = r.string();
    else if (field === 2 && wire === 2) {
      const at = r.pos;
      const cidrEnd = r.lengthEnd();
      cidrs.push(decodeCidr(new WireReader(bytes, r.pos, cidrEnd, base), at));
      r.pos = cidrEnd;
    } else if (field === 3 && wire === 0) inverseMatch = r.int64() !== 0n;
    else if (field === 5 && wire === 2) code = r.string();
    else r.skip(wire);
  }
  return { code: countryCode !== '' ? countryCode : code, cidrs, inverseMatch };
}

function decodeCidr(r: WireReader, at: number): Cidr {
  let ip: Uint8Array = new Uint8Array(0);
  let prefix = 0;
  while (!r.done()) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) ip = r.bytesField();
    else if (field === 2 && wire === 0) prefix = r.uint32();
    else r.skip(wire);
  }
  if (ip.length !== 4 && ip.length !== 16)
    r.fail(`CIDR address of ${ip.length} bytes (expected 4 or 16)`, at);
  if (prefix > ip.length * 8) r.fail(`CIDR prefix /${prefix} too long for a ${ip.length}-byte address`, at);
  return { ip, prefix };
}
