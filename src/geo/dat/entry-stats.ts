// Counts the rules of one .dat entry by type without decoding strings or building objects: a
// walk over the wire fields, used by `geo info` so a large file is summarised quickly.
import { ruleTypeName } from '../formats/list-text.js';
import { WireReader } from '../wire/wire-reader.js';

/** Counts of one entry. */
export interface EntryStats {
  readonly count: number;
  readonly byType: Record<string, number>;
  readonly withAttributes: number;
  readonly inverseMatch: boolean;
}

/** Counts the Domain messages of a GeoSite entry by type, and those with attributes. */
export function siteEntryStats(bytes: Uint8Array, start: number, end: number, base: number): EntryStats {
  const r = new WireReader(bytes, start, end, base);
  const byType: Record<string, number> = {};
  let count = 0;
  let withAttributes = 0;
  while (!r.done()) {
    const tag = r.uint32();
    if (tag !== 0x12) {
      r.skip(tag & 7);
      continue;
    }
    const domainEnd = r.lengthEnd();
    let type = 0;
    let attrs = false;
    const sub = new WireReader(bytes, r.pos, domainEnd, base);
    while (!sub.done()) {
      const t = sub.uint32();
      if (t === 0x08) type = sub.uint32();
      else {
        if (t >>> 3 === 3) attrs = true;
        sub.skip(t & 7);
      }
    }
    r.pos = domainEnd;
    count++;
    if (attrs) withAttributes++;
    const k = ruleTypeName(type);
    byType[k] = (byType[k] ?? 0) + 1;
  }
  return { count, byType, withAttributes, inverseMatch: false };
}

/** Counts the CIDR messages of a GeoIP entry by address family. */
export function ipEntryStats(bytes: Uint8Array, start: number, end: number, base: number): EntryStats {
  const r = new WireReader(bytes, start, end, base);
  let v4 = 0;
  let v6 = 0;
  let inverseMatch = false;
  while (!r.done()) {
    const tag = r.uint32();
    if (tag === 0x18) {
      inverseMatch = r.int64() !== 0n;
      continue;
    }
    if (tag !== 0x12) {
      r.skip(tag & 7);
      continue;
    }
    const cidrEnd = r.lengthEnd();
    let ipLength = 0;
    while (r.pos < cidrEnd) {
      const t = r.uint32();
      if (t === 0x0a) {
        const ipEnd = r.lengthEnd();
        ipLength = ipEnd - r.pos;
        r.pos = ipEnd;
      } else r.skip(t & 7);
    }
    if (r.pos !== cidrEnd) r.fail('CIDR fields run past the CIDR message');
    if (ipLength === 4) v4++;
    else if (ipLength === 16) v6++;
    else r.fail(`CIDR address of ${ipLength} bytes (expected 4 or 16)`);
  }
  const byType: Record<string, number> = {};
  if (v4 > 0) byType.ipv4 = v4;
  if (v6 > 0) byType.ipv6 = v6;
  return { count: v4 + v6, byType, withAttributes: 0, inverseMatch };
}
