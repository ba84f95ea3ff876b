// Writes site lists as a GeoSiteList (geosite.dat) by hand: country_code first, then domains in
// order; default values (type Plain, false) left off the wire, as Go's and protobuf-es's encoders do.
import type { SiteList, SiteRule } from '../model.js';
import { WireType, WireWriter } from '../wire/wire-writer.js';

/** Appends one Domain message (without its own tag) to the writer. */
export function writeDomain(w: WireWriter, rule: SiteRule): void {
  if (rule.type !== 0) w.uint32Field(1, rule.type);
  if (rule.value !== '') w.stringField(2, rule.value);
  for (const attr of rule.attributes) {
    const start = w.fork();
    if (attr.key !== '') w.stringField(1, attr.key);
    // A oneof member is written even when it holds its default value.
    if (typeof attr.value === 'boolean') w.uint32Field(2, attr.value ? 1 : 0);
    else {
      w.tag(3, WireType.Varint);
      w.int64(attr.value);
    }
    w.join(3, start);
  }
}

/** Appends one GeoSite message (without its own tag) to the writer. */
export function writeGeoSite(w: WireWriter, list: SiteList): void {
  if (list.code !== '') w.stringField(1, list.code);
  for (const rule of list.rules) {
    const start = w.fork();
    writeDomain(w, rule);
    w.join(2, start);
  }
}

/** Encodes site lists, in the order given, as the bytes of a geosite.dat file. */
export function encodeGeoSiteList(lists: readonly SiteList[]): Uint8Array {
  const w = new WireWriter(1 << 20);
  for (const list of lists) {
    const start = w.fork();
    writeGeoSite(w, list);
    w.join(1, start);
  }
  return w.finish();
}
