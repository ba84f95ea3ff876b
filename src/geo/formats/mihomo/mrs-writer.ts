// Writes a list as a mihomo .mrs rule set: the payload exactly as mihomo's ConvertToMrs lays it
// out (magic `MRS` 1, behavior byte, count, empty extra, then the domain set or the ranges) in a
// zstd frame. The count is the number of rules the file reads back as, so rewriting is stable.
import { GeoError } from '../../errors.js';
import type { IpList, SiteList } from '../../model.js';
import { entryKeys } from './domain-keys.js';
import { encodeDomainSet } from './domain-set.js';
import { heldEntries } from './held-entries.js';
import { encodeIpRanges } from './ip-ranges.js';
import { isIpList } from './provider-list.js';
import { zstdFrame } from './zstd-frame.js';

/** The magic that opens every .mrs payload: `MRS` and format version 1. */
export const MRS_MAGIC = Uint8Array.of(0x4d, 0x52, 0x53, 1);
/** The behavior byte of a .mrs payload (mihomo's RuleBehavior.Byte). */
export const MRS_BEHAVIOR = { domain: 0, ipcidr: 1, classical: 2 } as const;

/** The uncompressed .mrs payload of a list (what the zstd frame holds). */
export function mrsPayload(list: SiteList | IpList): Uint8Array {
  let behavior: number;
  let count: number;
  let body: Uint8Array;
  if (isIpList(list)) {
    const ranges = encodeIpRanges(list);
    behavior = MRS_BEHAVIOR.ipcidr;
    count = ranges.cidrs;
    body = ranges.section;
  } else {
    const keys = entryKeys(heldEntries(list).entries);
    if (keys.size === 0) {
      throw new GeoError(
        'export_unsupported',
        `list ${list.code} has no rule a mihomo domain set can hold; mihomo cannot load an empty .mrs`,
      );
    }
    behavior = MRS_BEHAVIOR.domain;
    // One rule per domain: `x` and `+.x` read back as the single domain rule x.
    count = new Set([...keys].map((k) => (k.startsWith('+.') ? k.slice(2) : k))).size;
    body = encodeDomainSet(keys);
  }
  const out = new Uint8Array(4 + 1 + 8 + 8 + body.length);
  const view = new DataView(out.buffer);
  out.set(MRS_MAGIC, 0);
  out[4] = behavior;
  view.setBigInt64(5, BigInt(count), false);
  view.setBigInt64(13, 0n, false);
  out.set(body, 21);
  return out;
}

/** A list as a .mrs file (behavior domain for a site list, ipcidr for an IP list). */
export function writeMrs(list: SiteList | IpList): Uint8Array {
  return zstdFrame(mrsPayload(list));
}
