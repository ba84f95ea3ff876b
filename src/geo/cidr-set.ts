// Collects IPv4/IPv6 networks for one list and merges them to the smallest CIDR set covering
// exactly the same addresses: ranges sorted, overlapping or adjacent ranges joined, each range
// cut into the largest aligned blocks. IPv4 first, then IPv6, each ascending (as netipx does).
import { bigintToBytes, bytesToBigint, type ParsedCidr } from './ip-address.js';
import type { Cidr } from './model.js';

const V6_BITS = 128n;

/** An accumulating set of networks; build() returns the merged, sorted CIDRs. */
export class CidrSet {
  private v4Start: number[] = [];
  private v4End: number[] = [];
  private v6: { start: bigint; end: bigint }[] = [];

  /** Number of networks added so far (before merging). */
  get size(): number {
    return this.v4Start.length + this.v6.length;
  }

  /** Adds a parsed network. */
  add(cidr: ParsedCidr): void {
    if (cidr.v6) this.addV6(cidr.start, cidr.prefix);
    else this.addV4(cidr.start, cidr.prefix);
  }

  /** Adds an IPv4 network given its start as uint32 (host bits clear) and prefix. */
  addV4(start: number, prefix: number): void {
    this.v4Start.push(start);
    this.v4End.push(start + 2 ** (32 - prefix) - 1);
  }

  /** Adds an IPv6 network given its start (host bits clear) and prefix. */
  addV6(start: bigint, prefix: number): void {
    this.v6.push({ start, end: start + (1n << (V6_BITS - BigInt(prefix))) - 1n });
  }

  /** Adds a network in wire form (4 or 16 bytes); host bits are cleared. */
  addCidr(cidr: Cidr): void {
    if (cidr.ip.length === 4) {
      const ip = cidr.ip;
      const v =
        (ip[0] as number) * 16777216 +
        (((ip[1] as number) << 16) | ((ip[2] as number) << 8) | (ip[3] as number));
      const size = 2 ** (32 - cidr.prefix);
      this.addV4(v - (v % size), cidr.prefix);
    } else {
      const host = V6_BITS - BigInt(cidr.prefix);
      this.addV6((bytesToBigint(cidr.ip) >> host) << host, cidr.prefix);
    }
  }

  /** Adds every network of another set. */
  addAll(other: CidrSet): void {
    for (let i = 0; i < other.v4Start.length; i++) {
      this.v4Start.push(other.v4Start[i] as number);
      this.v4End.push(other.v4End[i] as number);
    }
    for (const r of other.v6) this.v6.push(r);
  }

  /** Merges everything added into the minimal sorted CIDR list (IPv4 first). */
  build(): Cidr[] {
    const out: Cidr[] = [];
    this.buildV4(out);
    this.buildV6(out);
    return out;
  }

  private buildV4(out: Cidr[]): void {
    const n = this.v4Start.length;
    if (n === 0) return;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const starts = this.v4Start;
    const ends = this.v4End;
    // Sources are usually sorted already; only sort when they are not.
    let sorted = true;
    for (let i = 1; i < n; i++) {
      if ((starts[i] as number) < (starts[i - 1] as number)) {
        sorted = false;
        break;
      }
    }
    if (!sorted) order.sort((a, b) => (starts[a] as number) - (starts[b] as number));
    let curStart = starts[order[0] as number] as number;
    let curEnd = ends[order[0] as number] as number;
    for (let k = 1; k < n; k++) {
      const i = order[k] as number;
      const s = starts[i] as number;
      const e = ends[i] as number;
      if (s <= curEnd + 1) {
        if (e > curEnd) curEnd = e;
      } else {
        emitV4(out, curStart, curEnd);
        curStart = s;
        curEnd = e;
      }
    }
    emitV4(out, curStart, curEnd);
  }

  private buildV6(out: Cidr[]): void {
    if (this.v6.length === 0) return;
    let ranges = this.v6;
    for (let i = 1; i < ranges.length; i++) {
      if ((ranges[i] as { start: bigint }).start < (ranges[i - 1] as { start: bigint }).start) {
        ranges = ranges.slice().sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
        break;
      }
    }
    let cur = { ...(ranges[0] as { start: bigint; end: bigint }) };
    for (let k = 1; k < ranges.length; k++) {
      const r = ranges[k] as { start: bigint; end: bigint };
      if (r.start <= cur.end + 1n) {
        if (r.end > cur.end) cur.end = r.end;
      } else {
        emitV6(out, cur.start, cur.end);
        cur = { ...r };
      }
    }
    emitV6(out, cur.start, cur.end);
  }
}

/** Number of trailing zero bits of a uint32 (32 for zero). */
function ctz32(v: number): number {
  if (v === 0) return 32;
  return 31 - Math.clz32(v & -v);
}

/** floor(log2(n)) for 1 <= n <= 2^32. */
function floorLog2(n: number): number {
  return n >= 2 ** 32 ? 32 : 31 - Math.clz32(n);
}

function emitV4(out: Cidr[], startIn: number, end: number): void {
  let start = startIn;
  while (start <= end) {
    // The largest block aligned at start that stays within the range.
    const bits = Math.min(ctz32(start), floorLog2(end - start + 1));
    out.push({
      ip: new Uint8Array([start >>> 24, (start >>> 16) & 255, (start >>> 8) & 255, start & 255]),
      prefix: 32 - bits,
    });
    start += 2 ** bits;
  }
}

/** Index of the highest set bit of a positive bigint. */
function bitLength(v: bigint): number {
  return v.toString(2).length;
}

function emitV6(out: Cidr[], startIn: bigint, end: bigint): void {
  let start = startIn;
  while (start <= end) {
    const align = start === 0n ? 128 : bitLength(start & -start) - 1;
    const fit = bitLength(end - start + 1n) - 1;
    const bits = Math.min(align, fit);
    out.push({ ip: bigintToBytes(start, 16), prefix: 128 - bits });
    start += 1n << BigInt(bits);
  }
}
