// Collects IPv4/IPv6 networks for one list and merges them to the smallest CIDR set covering
// exactly the same addresses: ranges sorted, overlapping or adjacent ranges joined, each range
// cut into the largest aligned blocks. IPv4 first, then IPv6, each ascending (as netipx does).
// Hot path: IPv4 as uint32 numbers, IPv6 as four uint32 words in typed arrays (no bigint).

import type { Cidr } from '../model.js';
import type { ParsedCidr } from './ip-address.js';
import {
  addPowerOfTwo,
  compareWords,
  floorLog2Span,
  maskWords,
  parseDotted,
  parseIPv6Words,
  trailingZeros,
  type Words,
  wordsToBytes,
} from './ipv6-words.js';

/** Receives merged networks in order: IPv4 starts as uint32, IPv6 starts as four words. */
export interface CidrSink {
  v4(start: number, prefix: number): void;
  v6(start: Words, prefix: number): void;
}

/** Receives merged ranges in order: IPv4 as uint32 start and inclusive end, IPv6 as four words each. */
export interface RangeSink {
  v4(start: number, end: number): void;
  v6(start: Words, end: Words): void;
}

/** An accumulating set of networks; build() returns the merged, sorted CIDRs. */
export class CidrSet {
  private v4Start: Uint32Array = new Uint32Array(256);
  private v4End: Uint32Array = new Uint32Array(256);
  private v4Count = 0;
  private v6Words: Uint32Array = new Uint32Array(4 * 256);
  private v6Prefix: Uint8Array = new Uint8Array(256);
  private v6Count = 0;

  /** Number of networks added so far (before merging). */
  get size(): number {
    return this.v4Count + this.v6Count;
  }

  /** Empties the set, keeping its buffers for the next list. */
  reset(): void {
    this.v4Count = 0;
    this.v6Count = 0;
  }

  /** Adds a parsed network. */
  add(cidr: ParsedCidr): void {
    if (cidr.v6) this.addV6(cidr.start, cidr.prefix);
    else this.addV4(cidr.start, cidr.prefix);
  }

  /** Adds an IPv4 network given its start as uint32 and prefix; host bits are cleared. */
  addV4(start: number, prefix: number): void {
    // (>>> takes the shift count mod 32, so /32 needs its own case.)
    const host = prefix >= 32 ? 0 : 0xffffffff >>> prefix;
    const base = (start & ~host) >>> 0;
    this.pushV4(base, (base | host) >>> 0);
  }

  private pushV4(start: number, end: number): void {
    if (this.v4Count === this.v4Start.length) {
      const starts = new Uint32Array(this.v4Count * 2);
      starts.set(this.v4Start);
      this.v4Start = starts;
      const ends = new Uint32Array(this.v4Count * 2);
      ends.set(this.v4End);
      this.v4End = ends;
    }
    this.v4Start[this.v4Count] = start;
    this.v4End[this.v4Count++] = end;
  }

  /** Adds an IPv6 network given as 16 big-endian bytes at bytes[offset]; host bits are cleared. */
  addV6Bytes(bytes: Uint8Array, offset: number, prefix: number): void {
    const slot = this.reserveV6();
    for (let k = 0; k < 4; k++) {
      const o = offset + k * 4;
      this.v6Words[slot * 4 + k] =
        (((bytes[o] as number) << 24) |
          ((bytes[o + 1] as number) << 16) |
          ((bytes[o + 2] as number) << 8) |
          (bytes[o + 3] as number)) >>>
        0;
    }
    this.commitV6(slot, prefix);
  }

  /** Adds an IPv6 network given as four big-endian uint32 words at words[offset]; host bits are cleared. */
  addV6Words(words: Uint32Array, offset: number, prefix: number): void {
    const slot = this.reserveV6();
    for (let k = 0; k < 4; k++) this.v6Words[slot * 4 + k] = words[offset + k] as number;
    this.commitV6(slot, prefix);
  }

  /** Adds an IPv6 network given its start as a bigint and prefix; host bits are cleared. */
  addV6(start: bigint, prefix: number): void {
    const slot = this.reserveV6();
    for (let k = 0; k < 4; k++)
      this.v6Words[slot * 4 + k] = Number((start >> BigInt((3 - k) * 32)) & 0xffffffffn);
    this.commitV6(slot, prefix);
  }

  /** Adds a network in wire form (4 or 16 bytes); host bits are cleared. */
  addCidr(cidr: Cidr): void {
    const ip = cidr.ip;
    if (ip.length === 4) {
      this.addV4(
        (ip[0] as number) * 16777216 +
          (((ip[1] as number) << 16) | ((ip[2] as number) << 8) | (ip[3] as number)),
        cidr.prefix,
      );
      return;
    }
    this.addV6Bytes(ip, 0, cidr.prefix);
  }

  /**
   * Parses `addr[/prefix]` in text[from, to) and adds it; returns false (adding nothing) when it
   * is not a valid address or prefix. The fast path for text lists.
   */
  addText(text: string, from: number, to: number): boolean {
    // Scan only this line: indexOf would run on into the following lines of a big file.
    let slash = -1;
    let colon = -1;
    for (let p = from; p < to; p++) {
      const c = text.charCodeAt(p);
      if (c === 47) {
        slash = p;
        break;
      }
      if (c === 58 && colon === -1) colon = p;
    }
    const addrEnd = slash === -1 ? to : slash;
    let prefix = -1;
    if (slash !== -1) {
      const digits = to - slash - 1;
      if (digits < 1 || digits > 3) return false;
      prefix = 0;
      for (let p = slash + 1; p < to; p++) {
        const c = text.charCodeAt(p);
        if (c < 48 || c > 57) return false;
        prefix = prefix * 10 + (c - 48);
      }
    }
    if (colon !== -1) {
      if (prefix > 128) return false;
      const slot = this.reserveV6();
      if (!parseIPv6Words(text, from, addrEnd, this.v6Words, slot * 4)) return false;
      this.commitV6(slot, prefix === -1 ? 128 : prefix);
      return true;
    }
    if (prefix > 32) return false;
    const v = parseDotted(text, from, addrEnd);
    if (v < 0) return false;
    this.addV4(v, prefix === -1 ? 32 : prefix);
    return true;
  }

  /** Adds every network of another set. */
  addAll(other: CidrSet): void {
    for (let i = 0; i < other.v4Count; i++) this.pushV4(other.v4Start[i] as number, other.v4End[i] as number);
    for (let i = 0; i < other.v6Count; i++) {
      const slot = this.reserveV6();
      this.v6Words.set(other.v6Words.subarray(i * 4, i * 4 + 4), slot * 4);
      this.commitV6(slot, other.v6Prefix[i] as number);
    }
  }

  /** Merges everything added into the minimal sorted CIDR list (IPv4 first). */
  build(): Cidr[] {
    const out: Cidr[] = [];
    this.merge({
      v4: (start, prefix) =>
        out.push({
          ip: new Uint8Array([start >>> 24, (start >>> 16) & 255, (start >>> 8) & 255, start & 255]),
          prefix,
        }),
      v6: (start, prefix) => out.push({ ip: wordsToBytes(start), prefix }),
    });
    return out;
  }

  /** Merges everything added and hands the minimal sorted networks to a sink (IPv4 first). */
  merge(sink: CidrSink): void {
    const scratch = new Uint32Array(4);
    this.ranges({
      v4: (start, end) => emitV4(sink, start, end),
      v6: (start, end) => emitV6(sink, start, end, scratch),
    });
  }

  /**
   * Merges everything added and hands each maximal range (overlapping and adjacent networks
   * joined) to a sink, ascending, IPv4 first. Ends are inclusive; the word arrays are reused.
   */
  ranges(sink: RangeSink): void {
    this.rangesV4(sink);
    this.rangesV6(sink);
  }

  private reserveV6(): number {
    if (this.v6Count === this.v6Prefix.length) {
      const words = new Uint32Array(this.v6Words.length * 2);
      words.set(this.v6Words);
      this.v6Words = words;
      const prefixes = new Uint8Array(this.v6Prefix.length * 2);
      prefixes.set(this.v6Prefix);
      this.v6Prefix = prefixes;
    }
    return this.v6Count;
  }

  private commitV6(slot: number, prefix: number): void {
    maskWords(this.v6Words, slot * 4, prefix);
    this.v6Prefix[slot] = prefix;
    this.v6Count = slot + 1;
  }

  private rangesV4(out: RangeSink): void {
    const n = this.v4Count;
    if (n === 0) return;
    const starts = this.v4Start;
    const ends = this.v4End;
    // Sources are usually sorted already; only sort (an index) when they are not.
    let order: Uint32Array | undefined;
    for (let i = 1; i < n; i++) {
      if ((starts[i] as number) < (starts[i - 1] as number)) {
        order = new Uint32Array(n);
        for (let k = 0; k < n; k++) order[k] = k;
        order.sort((x, y) => (starts[x] as number) - (starts[y] as number));
        break;
      }
    }
    let curStart = starts[order ? (order[0] as number) : 0] as number;
    let curEnd = ends[order ? (order[0] as number) : 0] as number;
    for (let k = 1; k < n; k++) {
      const i = order ? (order[k] as number) : k;
      const s = starts[i] as number;
      const e = ends[i] as number;
      if (s <= curEnd + 1) {
        if (e > curEnd) curEnd = e;
      } else {
        out.v4(curStart, curEnd);
        curStart = s;
        curEnd = e;
      }
    }
    out.v4(curStart, curEnd);
  }

  private rangesV6(out: RangeSink): void {
    const n = this.v6Count;
    if (n === 0) return;
    const words = this.v6Words;
    const prefixes = this.v6Prefix;
    let order: Uint32Array | undefined;
    for (let i = 1; i < n; i++) {
      if (compareWords(words, i * 4, words, (i - 1) * 4) < 0) {
        order = new Uint32Array(n);
        for (let k = 0; k < n; k++) order[k] = k;
        order.sort((x, y) => compareWords(words, x * 4, words, y * 4));
        break;
      }
    }
    const curStart = new Uint32Array(4);
    const curEnd = new Uint32Array(4);
    // The end (last address) of network i, into e.
    const endOf = (i: number, e: Words) => {
      const prefix = prefixes[i] as number;
      for (let w = 0; w < 4; w++) {
        const keep = prefix - w * 32;
        const v = words[i * 4 + w] as number;
        e[w] = keep >= 32 ? v : keep <= 0 ? 0xffffffff : (v | (0xffffffff >>> keep)) >>> 0;
      }
    };
    const next = new Uint32Array(4);
    let first = order ? (order[0] as number) : 0;
    for (let w = 0; w < 4; w++) curStart[w] = words[first * 4 + w] as number;
    endOf(first, curEnd);
    for (let k = 1; k < n; k++) {
      const i = order ? (order[k] as number) : k;
      const p = i * 4;
      // Joins the current range when start <= curEnd + 1 (compared word by word; curEnd + 1
      // overflowing 128 bits means the range already reaches the top).
      let joins: boolean;
      const c = compareWords(words, p, curEnd, 0);
      if (c <= 0) joins = true;
      else {
        let carry = 1;
        joins = true;
        for (let w = 3; w >= 0; w--) {
          const sum = (curEnd[w] as number) + carry;
          carry = sum > 0xffffffff ? 1 : 0;
          if (sum >>> 0 !== (words[p + w] as number)) joins = false;
        }
        if (carry === 1) joins = true;
      }
      if (joins) {
        endOf(i, next);
        if (compareWords(next, 0, curEnd, 0) > 0) for (let w = 0; w < 4; w++) curEnd[w] = next[w] as number;
      } else {
        out.v6(curStart, curEnd);
        first = i;
        for (let w = 0; w < 4; w++) curStart[w] = words[p + w] as number;
        endOf(i, curEnd);
      }
    }
    out.v6(curStart, curEnd);
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

function emitV4(out: CidrSink, startIn: number, end: number): void {
  let start = startIn;
  while (start <= end) {
    // The largest block aligned at start that stays within the range.
    const bits = Math.min(ctz32(start), floorLog2(end - start + 1));
    out.v4(start, 32 - bits);
    start += 2 ** bits;
  }
}

/** Emits [start, end] as aligned blocks; consumes start. */
function emitV6(out: CidrSink, start: Words, end: Words, scratch: Words): void {
  for (;;) {
    const bits = Math.min(trailingZeros(start), floorLog2Span(start, end, scratch));
    out.v6(start, 128 - bits);
    if (!addPowerOfTwo(start, bits) || compareWords(start, 0, end, 0) > 0) return;
  }
}
