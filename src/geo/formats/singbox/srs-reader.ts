// Reads a sing-box binary rule-set (.srs, sing-box common/srs/binary.go): "SRS", a version byte,
// then zlib data holding a uvarint rule count and the rules, each a list of typed items closed by
// 0xFF and an invert byte. Domain items are sing's succinct-set domain matcher, ip_cidr items a
// netipx range set. Items a branchgate list cannot hold are refused by name; the decompressed size,
// every count and every decoded key are bounded before anything is allocated for them.
import { inflateSync } from 'node:zlib';
import { GeoError } from '../../errors.js';
import { CidrSet } from '../../ip/cidr-set.js';
import { dumpDomainMatcher } from './domain-matcher-dump.js';
import { addRangeCidrs } from './ip-range-cidrs.js';
import type { RuleSetDocument, RuleSetRule } from './rule-set-rule.js';
import { SrsCursor } from './srs-cursor.js';
import { SRS_ITEM_NAMES } from './srs-item-names.js';
import { decodeSuccinctSet } from './succinct-set-decoder.js';

/** The bytes every .srs file starts with. */
export const SRS_MAGIC = Uint8Array.of(0x53, 0x52, 0x53);

/** The newest rule-set version read (sing-box 1.13's). */
export const SRS_MAX_VERSION = 4;

/** Largest decompressed body accepted (sing-box's biggest public rule-sets are a few MiB). */
export const MAX_SRS_BODY_BYTES = 32 * 1024 * 1024;

const ITEM_DOMAIN = 2;
const ITEM_DOMAIN_KEYWORD = 3;
const ITEM_DOMAIN_REGEX = 4;
const ITEM_IP_CIDR = 6;
const ITEM_FINAL = 0xff;

/** Reads an .srs file; `name` (the file's name) is used in errors. */
export function readSrs(bytes: Uint8Array, name: string): RuleSetDocument {
  if (bytes.length < 4 || !startsWithMagic(bytes)) {
    const what = bytes.length < 4 ? `only ${bytes.length} bytes` : 'no "SRS" magic';
    throw new GeoError('ruleset_corrupt', `${name}: not a sing-box rule-set at byte 0 (${what})`);
  }
  const version = bytes[3] as number;
  if (version > SRS_MAX_VERSION) {
    throw new GeoError(
      'ruleset_unsupported',
      `${name}: rule-set version ${version} at byte 3 is newer than this reader (1 to ${SRS_MAX_VERSION})`,
    );
  }
  const cursor = new SrsCursor(inflate(bytes, name), name);
  const count = cursor.count('rule', 3);
  const rules: RuleSetRule[] = [];
  for (let i = 0; i < count; i++) rules.push(readRule(cursor, i));
  if (cursor.left > 0) cursor.fail(`${cursor.left} bytes after the last rule`);
  return { version, rules };
}

function startsWithMagic(bytes: Uint8Array): boolean {
  return bytes[0] === SRS_MAGIC[0] && bytes[1] === SRS_MAGIC[1] && bytes[2] === SRS_MAGIC[2];
}

function inflate(bytes: Uint8Array, name: string): Uint8Array {
  try {
    return inflateSync(bytes.subarray(4), { maxOutputLength: MAX_SRS_BODY_BYTES });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const what =
      e.code === 'ERR_BUFFER_TOO_LARGE'
        ? `decompresses to more than ${MAX_SRS_BODY_BYTES} bytes`
        : e.code === 'Z_BUF_ERROR'
          ? 'zlib data ends early (truncated file?)'
          : `bad zlib data (${e.message})`;
    throw new GeoError('ruleset_corrupt', `${name}: corrupt rule-set at byte 4 (the zlib data): ${what}`);
  }
}

function readRule(cursor: SrsCursor, index: number): RuleSetRule {
  const at = cursor.pos;
  const where = `rule ${index} at byte ${at} of the decompressed data`;
  const type = cursor.u8();
  if (type === 1) {
    throw new GeoError(
      'ruleset_unsupported',
      `${cursor.name}: ${where} is a logical rule (and/or of rules), which a branchgate list cannot hold`,
    );
  }
  if (type !== 0) cursor.fail(`rule ${index} has unknown rule type ${type}`, at);
  const domain: string[] = [];
  const domainSuffix: string[] = [];
  const domainEnding: string[] = [];
  let domainKeyword: string[] = [];
  let domainRegex: string[] = [];
  let ipCidr: RuleSetRule['ipCidr'] = [];
  const seen = new Set<number>();
  for (;;) {
    const itemAt = cursor.pos;
    const item = cursor.u8();
    const itemName = SRS_ITEM_NAMES.get(item);
    if (itemName === undefined) cursor.fail(`rule ${index} has unknown item type ${item}`, itemAt);
    if (seen.has(item)) cursor.fail(`rule ${index} has a second ${itemName} item`, itemAt);
    seen.add(item);
    switch (item) {
      case ITEM_FINAL:
        return {
          domain,
          domainSuffix,
          domainEnding,
          domainKeyword,
          domainRegex,
          ipCidr,
          invert: cursor.u8() !== 0,
          where,
        };
      case ITEM_DOMAIN: {
        const names = readDomainMatcher(cursor);
        domain.push(...names.domains);
        domainSuffix.push(...names.suffixes);
        domainEnding.push(...names.endings);
        break;
      }
      case ITEM_DOMAIN_KEYWORD:
        domainKeyword = readStrings(cursor);
        break;
      case ITEM_DOMAIN_REGEX:
        domainRegex = readStrings(cursor);
        break;
      case ITEM_IP_CIDR:
        ipCidr = readIpSet(cursor);
        break;
      default:
        throw new GeoError(
          'ruleset_unsupported',
          `${cursor.name}: rule ${index} has the item ${itemName} (type ${item}) at byte ${itemAt} of the decompressed data, which a branchgate list cannot hold (only domain, domain_suffix, domain_keyword, domain_regex and ip_cidr)`,
        );
    }
  }
}

function readStrings(cursor: SrsCursor): string[] {
  const n = cursor.count('string', 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(cursor.string());
  return out;
}

function readDomainMatcher(cursor: SrsCursor): ReturnType<typeof dumpDomainMatcher> {
  const at = cursor.pos;
  cursor.u8(); // the succinct set's format byte, 0; sing-box does not look at it
  const leavesAt = cursor.pos;
  const leaves = cursor.take(cursor.count('leaf bitmap word', 8) * 8);
  const bitmapAt = cursor.pos;
  const labelBitmap = cursor.take(cursor.count('label bitmap word', 8) * 8);
  const labelsAt = cursor.pos;
  const labels = cursor.take(cursor.count('label', 1));
  const keys = decodeSuccinctSet({
    leaves,
    labelBitmap,
    labels,
    leavesAt,
    bitmapAt,
    labelsAt,
    fail: (what, where) => cursor.fail(`domain matcher: ${what}`, where),
  });
  return dumpDomainMatcher(keys, (what) => {
    throw new GeoError(
      'ruleset_unsupported',
      `${cursor.name}: domain matcher at byte ${at} of the decompressed data: ${what}`,
    );
  });
}

function readIpSet(cursor: SrsCursor): RuleSetRule['ipCidr'] {
  const at = cursor.pos;
  const format = cursor.u8();
  if (format !== 1) cursor.fail(`IP set format ${format} (sing-box writes 1)`, at);
  const n = cursor.u64Count('IP range', 10);
  const set = new CidrSet();
  let previous: Uint8Array | undefined;
  for (let i = 0; i < n; i++) {
    const rangeAt = cursor.pos;
    const from = readAddress(cursor);
    const to = readAddress(cursor);
    if (from.length !== to.length) cursor.fail(`IP range ${i} mixes IPv4 and IPv6`, rangeAt);
    if (compare(from, to) > 0) cursor.fail(`IP range ${i} ends before it starts`, rangeAt);
    if (
      previous &&
      !(previous.length < from.length || (previous.length === from.length && compare(previous, from) < 0))
    ) {
      cursor.fail(`IP range ${i} does not follow range ${i - 1} (ranges must ascend, IPv4 first)`, rangeAt);
    }
    previous = to;
    addRangeCidrs(from, to, set);
  }
  return set.build();
}

function readAddress(cursor: SrsCursor): Uint8Array {
  const at = cursor.pos;
  const length = cursor.uvarint();
  if (length !== 4 && length !== 16) cursor.fail(`IP address of ${length} bytes (4 or 16 expected)`, at);
  return cursor.take(length);
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}
