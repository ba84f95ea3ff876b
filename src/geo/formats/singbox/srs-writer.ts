// Writes a branchgate list as a sing-box binary rule-set (.srs) laid out byte for byte as sing-box's
// srs.Write lays out the same rule (items in its order, its domain matcher keys and succinct set,
// netipx's merged ranges), then zlib at best compression as sing-box uses. Deterministic: the same
// list always gives the same bytes.
import { deflateSync } from 'node:zlib';
import { GeoError } from '../../errors.js';
import { CidrSet } from '../../ip/cidr-set.js';
import type { Cidr, IpList, SiteList } from '../../model.js';
import { domainMatcherKeys } from './domain-matcher-keys.js';
import { listToRule } from './list-to-rule.js';
import { RULE_SET_VERSIONS, type RuleSetRule, type RuleSetVersion } from './rule-set-rule.js';
import { SRS_MAGIC } from './srs-reader.js';
import { SrsSink } from './srs-sink.js';
import { encodeSuccinctSet } from './succinct-set-encoder.js';

/** Options of writeSrs. */
export interface WriteSrsOptions {
  /**
   * The rule-set version to write for. 1 gives version 1's domain layout (sing-box 1.8 on);
   * 2, 3 and 4 all give a file marked version 2 (sing-box 1.10 on), as `sing-box rule-set
   * compile` marks any rule-set that needs nothing newer.
   */
  readonly version: RuleSetVersion;
}

const encoder = new TextEncoder();

/** The .srs bytes of a list (its code is not stored: name the file after it). */
export function writeSrs(list: SiteList | IpList, options: WriteSrsOptions): Uint8Array {
  const { version } = options;
  if (!RULE_SET_VERSIONS.includes(version)) {
    throw new GeoError('usage', `rule-set version ${String(version)}: 1, 2, 3 or 4 expected`);
  }
  const rule = listToRule(list);
  const body = new SrsSink();
  body.uvarint(rule ? 1 : 0);
  if (rule) writeRule(body, rule, version === 1);
  const compressed = deflateSync(body.bytes(), { level: 9 });
  const out = new Uint8Array(4 + compressed.length);
  out.set(SRS_MAGIC, 0);
  out[3] = Math.min(version, 2);
  out.set(compressed, 4);
  return out;
}

function writeRule(sink: SrsSink, rule: RuleSetRule, legacy: boolean): void {
  sink.u8(0); // a default rule
  const suffixes = [...rule.domainSuffix];
  for (const ending of rule.domainEnding) {
    if (!ending.startsWith('.')) {
      throw new GeoError(
        'export_unsupported',
        `${rule.where}: a name ending "${ending}" has no sing-box form`,
      );
    }
    suffixes.push(ending);
  }
  if (rule.domain.length > 0 || suffixes.length > 0) {
    sink.u8(2);
    const set = encodeSuccinctSet(domainMatcherKeys(rule.domain, suffixes, legacy));
    sink.u8(0);
    sink.uvarint(set.leaves.length / 8);
    sink.raw(set.leaves);
    sink.uvarint(set.labelBitmap.length / 8);
    sink.raw(set.labelBitmap);
    sink.lengthPrefixed(set.labels);
  }
  if (rule.domainKeyword.length > 0) writeStrings(sink, 3, rule.domainKeyword);
  if (rule.domainRegex.length > 0) writeStrings(sink, 4, rule.domainRegex);
  if (rule.ipCidr.length > 0) writeIpSet(sink, rule.ipCidr);
  sink.u8(0xff);
  sink.u8(rule.invert ? 1 : 0);
}

function writeStrings(sink: SrsSink, item: number, values: readonly string[]): void {
  sink.u8(item);
  sink.uvarint(values.length);
  for (const value of values) sink.lengthPrefixed(encoder.encode(value));
}

function writeIpSet(sink: SrsSink, cidrs: readonly Cidr[]): void {
  const set = new CidrSet();
  for (const cidr of cidrs) set.addCidr(cidr);
  const ranges: Uint8Array[] = [];
  set.ranges({
    v4: (start, end) => ranges.push(v4Bytes(start), v4Bytes(end)),
    v6: (start, end) => ranges.push(wordBytes(start), wordBytes(end)),
  });
  sink.u8(6);
  sink.u8(1); // the IP set's format
  sink.u64(ranges.length / 2);
  for (const address of ranges) sink.lengthPrefixed(address);
}

function v4Bytes(value: number): Uint8Array {
  return Uint8Array.of(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);
}

function wordBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  for (let w = 0; w < 4; w++) view.setUint32(w * 4, words[w] as number);
  return out;
}
