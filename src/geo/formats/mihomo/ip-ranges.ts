// The IP body of an ipcidr .mrs (mihomo's component/cidr IpCidrSet.WriteBin): version 1, a range
// count, then each merged range as two 16-byte addresses (IPv4 as ::ffff:a.b.c.d, unmapped again
// on reading). Ranges come merged, ascending, IPv4 first, as netipx.IPSet keeps them.
import { GeoError } from '../../errors.js';
import { CidrSet } from '../../ip/cidr-set.js';
import { bigintToBytes, bytesToBigint, formatIPv6 } from '../../ip/ip-address.js';
import { wordsToBytes } from '../../ip/ipv6-words.js';
import type { Cidr, IpList } from '../../model.js';
import type { ByteCursor } from './byte-cursor.js';

const VERSION = 1;
const MAPPED = 0xffffn << 32n;
const MAPPED_END = MAPPED | 0xffffffffn;

/** The range section of an IP list and how many CIDRs it reads back as. */
export interface IpRanges {
  readonly section: Uint8Array;
  readonly cidrs: number;
}

/**
 * Encodes a non-empty, non-inverted IP list as merged ranges. IPv6 ranges that start or end in
 * ::ffff:0:0/96 are refused: mihomo stores IPv4 in that space and would read them back as IPv4.
 */
export function encodeIpRanges(list: IpList): IpRanges {
  if (list.inverseMatch) {
    throw new GeoError(
      'export_unsupported',
      `list ${list.code} has inverse_match, which a mihomo provider cannot hold`,
    );
  }
  const set = new CidrSet();
  for (const c of list.cidrs) set.addCidr(c);
  // Each range as its two 16-byte addresses, IPv4 as ::ffff:a.b.c.d.
  const ranges: Uint8Array[] = [];
  const v4 = (a: number) => {
    const b = new Uint8Array(16);
    b[10] = 0xff;
    b[11] = 0xff;
    new DataView(b.buffer).setUint32(12, a, false);
    return b;
  };
  const inMapped = (w: Uint32Array) => w[0] === 0 && w[1] === 0 && w[2] === 0xffff;
  set.ranges({
    v4: (start, end) => ranges.push(v4(start), v4(end)),
    v6: (start, end) => {
      if (inMapped(start) || inMapped(end)) {
        const from = formatIPv6(bytesToBigint(wordsToBytes(start)));
        const to = formatIPv6(bytesToBigint(wordsToBytes(end)));
        throw new GeoError(
          'export_unsupported',
          `list ${list.code}: IPv6 range ${from} - ${to} reaches into ::ffff:0:0/96, which .mrs reads back as IPv4`,
        );
      }
      ranges.push(wordsToBytes(start), wordsToBytes(end));
    },
  });
  if (ranges.length === 0) {
    throw new GeoError('export_unsupported', `list ${list.code} is empty; mihomo cannot load an empty .mrs`);
  }
  let cidrs = 0;
  set.merge({ v4: () => cidrs++, v6: () => cidrs++ });
  const out = new Uint8Array(1 + 8 + ranges.length * 16);
  out[0] = VERSION;
  new DataView(out.buffer).setBigInt64(1, BigInt(ranges.length / 2), false);
  for (const [i, address] of ranges.entries()) out.set(address, 9 + i * 16);
  return { section: out, cidrs };
}

/** Reads the range section at the cursor and returns the smallest CIDR list covering it. */
export function decodeIpRanges(cur: ByteCursor): Cidr[] {
  const versionAt = cur.pos;
  const version = cur.u8('range set version');
  if (version !== VERSION) cur.fail(`range set version ${version}, expected ${VERSION}`, versionAt);
  const n = cur.length('range count', 32, 1);
  const out: Cidr[] = [];
  let prev: { readonly v6: boolean; readonly end: bigint } | undefined;
  for (let i = 0; i < n; i++) {
    const at = cur.pos;
    let from = bytesToBigint(cur.take(16, 'range start'));
    let to = bytesToBigint(cur.take(16, 'range end'));
    const v6 = !(from >= MAPPED && from <= MAPPED_END);
    if (v6 === (to >= MAPPED && to <= MAPPED_END)) cur.fail(`range ${i} mixes IPv4 and IPv6`, at);
    if (!v6) {
      from -= MAPPED;
      to -= MAPPED;
    }
    if (from > to) cur.fail(`range ${i} ends before it starts`, at);
    if (prev?.v6 === v6 && from <= prev.end + 1n)
      cur.fail(`range ${i} overlaps or touches the one before`, at);
    if (prev?.v6 && !v6) cur.fail(`range ${i} is IPv4 after IPv6 ranges`, at);
    prev = { v6, end: to };
    pushRange(out, from, to, v6 ? 128 : 32);
  }
  return out;
}

/** Appends [from, to] as the largest aligned blocks, ascending. */
function pushRange(out: Cidr[], fromIn: bigint, to: bigint, bits: number): void {
  let from = fromIn;
  const bytes = bits / 8;
  while (from <= to) {
    let size = from === 0n ? bits : (from & -from).toString(2).length - 1;
    const span = (to - from + 1n).toString(2).length - 1;
    if (span < size) size = span;
    out.push({ ip: bigintToBytes(from, bytes), prefix: bits - size });
    from += 1n << BigInt(size);
  }
}
