// Decodes one GeoSite message from .dat bytes by hand (no generic reflection), skipping unknown
// fields; used by the reader to decode only the list asked for. Errors carry the file offset.
import type { DomainType, SiteAttribute, SiteList, SiteRule } from '../model.js';
import { WireReader } from '../wire/wire-reader.js';

/** Decodes the GeoSite whose fields span bytes[start, end); base is the file offset of bytes[0]. */
export function decodeGeoSite(bytes: Uint8Array, start: number, end: number, base = 0): SiteList {
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  const rules: SiteRule[] = [];
  while (!r.done()) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) countryCode = r.string();
    else if (field === 2 && wire === 2) {
      const domainEnd = r.lengthEnd();
      rules.push(decodeDomain(r, domainEnd));
    } else if (field === 4 && wire === 2) code = r.string();
    else r.skip(wire);
  }
  return { code: countryCode !== '' ? countryCode : code, rules };
}

function decodeDomain(r: WireReader, end: number): SiteRule {
  const sub = new WireReader(r.bytes, r.pos, end, r.base);
  let type = 0;
  let value = '';
  const attributes: SiteAttribute[] = [];
  while (!sub.done()) {
    const tag = sub.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 0) type = sub.uint32();
    else if (field === 2 && wire === 2) value = sub.string();
    else if (field === 3 && wire === 2) {
      const attrEnd = sub.lengthEnd();
      attributes.push(decodeAttribute(sub, attrEnd));
    } else sub.skip(wire);
  }
  r.pos = end;
  // An unknown number is kept as read: the matcher and the writers refuse it by name.
  return { type: type as DomainType, value, attributes };
}

function decodeAttribute(r: WireReader, end: number): SiteAttribute {
  const sub = new WireReader(r.bytes, r.pos, end, r.base);
  let key = '';
  let value: boolean | bigint = false;
  while (!sub.done()) {
    const tag = sub.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) key = sub.string();
    else if (field === 2 && wire === 0) value = sub.int64() !== 0n;
    else if (field === 3 && wire === 0) value = sub.int64();
    else sub.skip(wire);
  }
  r.pos = end;
  return { key, value };
}
