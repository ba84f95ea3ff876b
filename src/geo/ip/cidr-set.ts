// Collects IPv4/IPv6 networks for one list and merges them to the smallest CIDR set covering
// exactly the same addresses: ranges sorted, overlapping or adjacent ranges joined, each range
// cut into the largest aligned blocks. IPv4 first, then IPv6, each ascending (as netipx does).
// Hot path: IPv4 as uint32 numbers, IPv6 as four uint32 words in typed arrays (no bigint).

import type { Cidr } from '../model.js';
import type { ParsedCidr } from './ip-address.js';
import {
  addPowerOfTwo,
  compareWords,
  fillHostWords,
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

/** An accumulating set of networks; build() returns the merged, sorted CIDRs. */
export class CidrSet {
  private v4Start: number[] = [];
  private v4End: number[] = [];
  private v6Words: Uint32Array = new Uint32Array(4 * 256);
  private v6Prefix: Uint8Array = new Uint8Array(256);
  private v6Count = 0;

  /** Number of networks added so far (before merging). */
  get size(): number {
    return this.v4Start.length + this.v6Count;
  }

  /** Adds a parsed network. */
  add(cidr: ParsedCidr): void {
    if (cidr.v6) this.addV6(cidr.start, cidr.prefix);
    else this.addV4(cidr.start, cidr.prefix);
  }

  /** Adds an IPv4 network given its start as uint32 and prefix; host bits are cleared. */
  addV4(start: number, prefix: number): void {
    const size = 2 ** (32 - prefix);
    const base = start - (start % size);
    this.v4Start.push(base);
    this.v4End.push(base + size - 1);
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
    const slot = this.reserveV6();
    for (let k = 0; k < 4; k++) {
      this.v6Words[slot * 4 + k] =
        (((ip[k * 4] as number) << 24) |
          ((ip[k * 4 + 1] as number) << 16) |
          ((ip[k * 4 + 2] as number) << 8) |
          (ip[k * 4 + 3] as number)) >>>
        0;
    }
    this.commitV6(slot, cidr.prefix);
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
    for (let i = 0; i < other.v4Start.length; i++) {
      this.v4Start.push(other.v4Start[i] as number);
      this.v4End.push(other.v4End[i] as number);
    }
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
    this.buildV4(sink);
    this.buildV6(sink);
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

  private buildV4(out: CidrSink): void {
    const n = this.v4Start.length;
    if (n === 0) return;
    const starts = this.v4Start;
    const ends = this.v4End;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // Sources are usually sorted already; only sort when they are not.
    for (let i = 1; i < n; i++) {
      if ((starts[i] as number) < (starts[i - 1] as number)) {
        order.sort((a, b) => (starts[a] as number) - (starts[b] as number));
        break;
      }
    }
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

  private buildV6(out: CidrSink): void {
    const n = this.v6Count;
    if (n === 0) return;
    const words = this.v6Words;
    const prefixes = this.v6Prefix;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = 1; i < n; i++) {
      if (compareWords(words, i * 4, words, (i - 1) * 4) < 0) {
        order.sort((a, b) => compareWords(words, a * 4, words, b * 4));
        break;
      }
    }
    const curStart = new Uint32Array(4);
    const curEnd = new Uint32Array(4);
    const next = new Uint32Array(4);
    const scratch = new Uint32Array(4);
    const load = (i: number) => {
      curStart.set(words.subarray(i * 4, i * 4 + 4));
      curEnd.set(curStart);
      fillHostWords(curEnd, 0, prefixes[i] as number);
    };
    load(order[0] as number);
    for (let k = 1; k < n; k++) {
      const i = order[k] as number;
      // Adjacent or overlapping when start <= curEnd + 1.
      let joins = compareWords(words, i * 4, curEnd, 0) <= 0;
      if (!joins) {
        next.set(curEnd);
        joins = !addPowerOfTwo(next, 0) || compareWords(words, i * 4, next, 0) === 0;
      }
      if (joins) {
        next.set(words.subarray(i * 4, i * 4 + 4));
        fillHostWords(next, 0, prefixes[i] as number);
        if (compareWords(next, 0, curEnd, 0) > 0) curEnd.set(next);
      } else {
        emitV6(out, curStart, curEnd, scratch);
        load(i);
      }
    }
    emitV6(out, curStart, curEnd, scratch);
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
