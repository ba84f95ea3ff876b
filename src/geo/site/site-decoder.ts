// Decodes one GeoSite message from .dat bytes by hand (no generic reflection), skipping unknown
// fields; used by the reader to decode only the list asked for. Errors carry the file offset.
//   scanGeoSite: bytes -> sink.rule(type, bytes, value range, rule range), nothing allocated per
//                rule (the matcher's lean loading); ruleHasAttributes reads a rule's attributes
//                only when a `code@attr` selector asks;
//   decodeGeoSite: the same walk into a SiteList of rule objects (tools, exports, tests).
import type { DomainType, SiteAttribute, SiteList, SiteRule } from '../model.js';
import { WireReader } from '../wire/wire-reader.js';

/** Receives the rules of a GeoSite message in file order, straight from the file's bytes. */
export interface GeoSiteSink {
  /**
   * One rule: its type number, its value as UTF-8 in bytes[valueStart, valueEnd), and the whole
   * Domain message in bytes[ruleStart, ruleEnd) (for ruleHasAttributes).
   */
  rule(
    type: number,
    bytes: Uint8Array,
    valueStart: number,
    valueEnd: number,
    ruleStart: number,
    ruleEnd: number,
  ): void;
}

/**
 * Walks the GeoSite whose fields span bytes[start, end) and hands each rule to the sink; base is
 * the file offset of bytes[0] (for errors). Returns the list's code.
 */
export function scanGeoSite(
  bytes: Uint8Array,
  start: number,
  end: number,
  base: number,
  sink: GeoSiteSink,
): string {
  const r = new WireReader(bytes, start, end, base);
  let countryCode = '';
  let code = '';
  while (!r.done()) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) countryCode = r.string();
    else if (field === 2 && wire === 2) {
      const domainEnd = r.lengthEnd();
      const ruleStart = r.pos;
      const outerEnd = r.end;
      r.end = domainEnd;
      let type = 0;
      let valueStart = ruleStart;
      let valueEnd = ruleStart;
      while (!r.done()) {
        const t = r.uint32();
        if (t === 0x08) type = r.uint32();
        else if (t === 0x12) {
          const e = r.lengthEnd();
          valueStart = r.pos;
          valueEnd = e;
          r.pos = e;
        } else r.skip(t & 7);
      }
      r.end = outerEnd;
      if (type > 3) r.fail(`unknown rule type ${type}`, ruleStart);
      sink.rule(type, bytes, valueStart, valueEnd, ruleStart, domainEnd);
    } else if (field === 4 && wire === 2) code = r.string();
    else r.skip(wire);
  }
  return countryCode !== '' ? countryCode : code;
}

/**
 * Whether the rule in bytes[start, end) (a Domain message) carries every one of `keys` with a
 * value other than false, as `selectRules` decides for decoded rules.
 */
export function ruleHasAttributes(
  bytes: Uint8Array,
  start: number,
  end: number,
  base: number,
  keys: readonly string[],
): boolean {
  if (keys.length === 0) return true;
  const r = new WireReader(bytes, start, end, base);
  const found = new Set<string>();
  while (!r.done()) {
    const tag = r.uint32();
    if (tag === 0x1a) {
      const attrEnd = r.lengthEnd();
      const attr = decodeAttribute(r, attrEnd);
      if (attr.value !== false) found.add(attr.key);
    } else r.skip(tag & 7);
  }
  return keys.every((k) => found.has(k));
}

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
