// Matches an IP address against compiled IP lists and reports every list that holds it (or, for a
// list with inverse_match, every list that does not). Compiled once into one sorted table per
// family that cuts the address space where the set of matching lists changes:
//   lists -> merged ranges (CidrSet) -> toggle events -> sweep -> interval starts + set per interval
//   lookup: parse in place (or take a uint32 / four words) -> binary search -> copy the set out
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is looked up as IPv4, as v2ray does.

import { GeoError } from '../errors.js';
import type { IpList } from '../model.js';
import { CidrSet } from './cidr-set.js';
import type { GeoIpSink } from './ip-decoder.js';
import { addPowerOfTwo, parseDotted, parseIPv6Words, type Words } from './ipv6-words.js';

/** An IPv4 address of 4 bytes as a uint32. */
function ipv4Number(ip: Uint8Array): number {
  return (
    (ip[0] as number) * 16777216 + (((ip[1] as number) << 16) | ((ip[2] as number) << 8) | (ip[3] as number))
  );
}

/** One family's table: interval k starts at point k (width words each) and matches set setOf[k]. */
interface FamilyTable {
  readonly starts: Uint32Array;
  readonly setOf: Int32Array;
  readonly count: number;
}

/** Toggle events of one family (width 1: IPv4, 4: IPv6): where a list starts or stops matching. */
class Events {
  words: Uint32Array<ArrayBufferLike>;
  lists: Int32Array<ArrayBufferLike>;
  count = 0;
  /** Where each list's events begin: each list's events arrive sorted (a run). */
  private readonly runs: number[] = [];

  /** `capacity`: events expected (an upper bound is fine: untouched pages cost no memory). */
  constructor(
    readonly width: 1 | 4,
    capacity = 1024,
  ) {
    this.words = new Uint32Array(width * Math.max(16, capacity));
    this.lists = new Int32Array(Math.max(16, capacity));
  }

  private grow(): void {
    const words = new Uint32Array(this.words.length * 2);
    words.set(this.words);
    this.words = words;
    const lists = new Int32Array(this.lists.length * 2);
    lists.set(this.lists);
    this.lists = lists;
  }

  /** Marks the start of the next list's events (one sorted run). */
  startRun(): void {
    if (this.runs[this.runs.length - 1] !== this.count) this.runs.push(this.count);
  }

  /** Adds an IPv4 point for a list. */
  add4(point: number, list: number): void {
    if (this.count === this.lists.length) this.grow();
    this.words[this.count] = point;
    this.lists[this.count++] = list;
  }

  /** Adds an IPv6 point (four words) for a list. */
  add6(point: Words, list: number): void {
    if (this.count === this.lists.length) this.grow();
    const p = this.count * 4;
    this.words[p] = point[0] as number;
    this.words[p + 1] = point[1] as number;
    this.words[p + 2] = point[2] as number;
    this.words[p + 3] = point[3] as number;
    this.lists[this.count++] = list;
  }

  /**
   * Sorts the events by point in place: an LSD radix sort (stable) on 16-bit digits, or 8-bit
   * ones for few events, where the bucket array's fixed cost would dominate (a cold start of a
   * small list set stays fast). A digit every event shares is skipped (IPv6 low words, mostly).
   */
  sort(): void {
    if (this.runs.length <= 16) {
      this.mergeRuns();
      return;
    }
    const n = this.count;
    const w = this.width;
    const bits = n > 1 << 17 ? 16 : 8;
    const buckets = 1 << bits;
    const mask = buckets - 1;
    const perWord = 32 / bits;
    const digits = w * perWord;
    // Every digit's histogram in one pass over the events (digit 0 is the least significant).
    const counts = new Uint32Array(digits * (buckets + 1));
    let words = this.words;
    const sortedWords = w === 4 ? 2 : w;
    for (let e = 0; e < n; e++) {
      for (let k = 0; k < sortedWords; k++) {
        const v = words[e * w + k] as number;
        for (let j = 0; j < perWord; j++) {
          const at = ((w - 1 - k) * perWord + j) * (buckets + 1) + ((v >>> (j * bits)) & mask) + 1;
          counts[at] = (counts[at] as number) + 1;
        }
      }
    }
    let lists = this.lists;
    let spareWords: Uint32Array<ArrayBufferLike> = new Uint32Array(n * w);
    let spareLists: Int32Array<ArrayBufferLike> = new Int32Array(n);
    // IPv6 is sorted by its top 64 bits only; the rare events that tie there are put in order
    // by their low 64 bits afterwards (low words mostly differ only at a /128 or a range end).
    for (let digit = w === 4 ? 2 * perWord : 0; digit < digits; digit++) {
      const base = digit * (buckets + 1);
      const k = w - 1 - Math.floor(digit / perWord);
      const shift = (digit % perWord) * bits;
      // A digit every event shares orders nothing: skip the pass (the low words of IPv6 mostly).
      let skip = false;
      for (let d = 1; d <= buckets; d++) {
        const c = counts[base + d] as number;
        if (c === n) skip = true;
        if (c !== 0) break;
      }
      if (skip) continue;
      for (let d = 1; d <= buckets; d++)
        counts[base + d] = (counts[base + d] as number) + (counts[base + d - 1] as number);
      if (w === 1) {
        for (let e = 0; e < n; e++) {
          const v = words[e] as number;
          const at = base + ((v >>> shift) & mask);
          const to = counts[at] as number;
          counts[at] = to + 1;
          spareWords[to] = v;
          spareLists[to] = lists[e] as number;
        }
      } else {
        for (let e = 0; e < n; e++) {
          const p = e * 4;
          const at = base + (((words[p + k] as number) >>> shift) & mask);
          const to = counts[at] as number;
          counts[at] = to + 1;
          const q = to * 4;
          spareWords[q] = words[p] as number;
          spareWords[q + 1] = words[p + 1] as number;
          spareWords[q + 2] = words[p + 2] as number;
          spareWords[q + 3] = words[p + 3] as number;
          spareLists[to] = lists[e] as number;
        }
      }
      const tw = words;
      words = spareWords;
      spareWords = tw;
      const tl = lists;
      lists = spareLists;
      spareLists = tl;
    }
    if (w === 4) sortTies(words, lists, n);
    this.words = words;
    this.lists = lists;
  }

  /**
   * Sorts by merging the sorted runs pairwise (stable): for few lists this is a few linear passes,
   * cheaper than radix passes, above all in a cold process.
   */
  private mergeRuns(): void {
    const n = this.count;
    const w = this.width;
    let bounds = [...this.runs.filter((r) => r < n), n];
    if (bounds[0] !== 0) bounds.unshift(0);
    let words = this.words;
    let lists = this.lists;
    let spareWords: Uint32Array<ArrayBufferLike> = new Uint32Array(n * w);
    let spareLists: Int32Array<ArrayBufferLike> = new Int32Array(n);
    const less = (a: Uint32Array<ArrayBufferLike>, x: number, y: number) => {
      if (w === 1) return (a[y] as number) < (a[x] as number);
      for (let k = 0; k < 4; k++) {
        const p = a[y * 4 + k] as number;
        const q = a[x * 4 + k] as number;
        if (p !== q) return p < q;
      }
      return false;
    };
    while (bounds.length > 2) {
      const next = [0];
      for (let r = 0; r + 1 < bounds.length; r += 2) {
        const lo = bounds[r] as number;
        const mid = bounds[r + 1] as number;
        const hi = r + 2 < bounds.length ? (bounds[r + 2] as number) : mid;
        let i = lo;
        let j = mid;
        for (let o = lo; o < hi; o++) {
          // Take from the right run only when strictly smaller (keeps the merge stable).
          const from = j < hi && (i >= mid || less(words, i, j)) ? j++ : i++;
          for (let k = 0; k < w; k++) spareWords[o * w + k] = words[from * w + k] as number;
          spareLists[o] = lists[from] as number;
        }
        next.push(hi);
      }
      bounds = next;
      const tw = words;
      words = spareWords;
      spareWords = tw;
      const tl = lists;
      lists = spareLists;
      spareLists = tl;
    }
    this.words = words;
    this.lists = lists;
  }
}

/**
 * After a sort on the top two words: insertion-sorts each run of events with equal top words by
 * their low two words (stable; runs are short).
 */
function sortTies(words: Uint32Array<ArrayBufferLike>, lists: Int32Array<ArrayBufferLike>, n: number): void {
  let from = 0;
  while (from < n) {
    let to = from + 1;
    while (to < n && words[to * 4] === words[from * 4] && words[to * 4 + 1] === words[from * 4 + 1]) to++;
    for (let i = from + 1; i < to; i++) {
      const w2 = words[i * 4 + 2] as number;
      const w3 = words[i * 4 + 3] as number;
      const list = lists[i] as number;
      const w0 = words[i * 4] as number;
      const w1 = words[i * 4 + 1] as number;
      let j = i - 1;
      while (
        j >= from &&
        ((words[j * 4 + 2] as number) > w2 || (words[j * 4 + 2] === w2 && (words[j * 4 + 3] as number) > w3))
      ) {
        for (let k = 0; k < 4; k++) words[(j + 1) * 4 + k] = words[j * 4 + k] as number;
        lists[j + 1] = lists[j] as number;
        j--;
      }
      words[(j + 1) * 4] = w0;
      words[(j + 1) * 4 + 1] = w1;
      words[(j + 1) * 4 + 2] = w2;
      words[(j + 1) * 4 + 3] = w3;
      lists[j + 1] = list;
    }
    from = to;
  }
}

/**
 * Interns sets of list indexes; set 0 is the empty set. A set is keyed by two 32-bit XORs of
 * per-list random values (kept up to date as lists toggle, so no key is built per interval) in
 * an open-addressing table, and checked member by member on a hit.
 */
class SetTable {
  readonly sets: number[][] = [[]];
  /** Sets whose key collided with another set's: looked up by their members. */
  private readonly collided = new Map<string, number>();
  private readonly keyHigh: Int32Array;
  private readonly keyLow: Int32Array;
  private readonly active: Uint8Array;
  private activeCount = 0;
  private high = 0;
  private low = 0;
  private slotHigh = new Int32Array(1024);
  private slotLow = new Int32Array(1024);
  private slotId = new Int32Array(1024).fill(-1);

  constructor(lists: number) {
    this.keyHigh = new Int32Array(lists);
    this.keyLow = new Int32Array(lists);
    this.active = new Uint8Array(lists);
    let x = 0x9e3779b9 | 0;
    const next = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x | 0;
    };
    for (let l = 0; l < lists; l++) {
      this.keyHigh[l] = next();
      this.keyLow[l] = next();
    }
  }

  /** Starts a new sweep with no list active. */
  clear(): void {
    this.active.fill(0);
    this.activeCount = 0;
    this.high = 0;
    this.low = 0;
  }

  /** A list starts or stops matching. */
  toggle(list: number): void {
    if (this.active[list] === 0) {
      this.active[list] = 1;
      this.activeCount++;
    } else {
      this.active[list] = 0;
      this.activeCount--;
    }
    this.high ^= this.keyHigh[list] as number;
    this.low ^= this.keyLow[list] as number;
  }

  /** The id of the set of lists active now. */
  current(): number {
    if (this.activeCount === 0) return 0;
    const mask = this.slotId.length - 1;
    let slot = (this.low ^ Math.imul(this.high, 0x9e3779b1)) & mask;
    for (;;) {
      const id = this.slotId[slot] as number;
      if (id === -1) break;
      if (this.slotHigh[slot] === this.high && this.slotLow[slot] === this.low) {
        if (this.isActive(this.sets[id] as number[])) return id;
        return this.internCollided();
      }
      slot = (slot + 1) & mask;
    }
    const id = this.sets.length;
    this.sets.push(this.members());
    this.slotHigh[slot] = this.high;
    this.slotLow[slot] = this.low;
    this.slotId[slot] = id;
    if (this.sets.length * 2 > this.slotId.length) this.rehash();
    return id;
  }

  private members(): number[] {
    const members: number[] = [];
    for (let l = 0; l < this.active.length; l++) if (this.active[l] === 1) members.push(l);
    return members;
  }

  private internCollided(): number {
    const members = this.members();
    const text = members.join(',');
    let id = this.collided.get(text);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(members);
      this.collided.set(text, id);
    }
    return id;
  }

  private rehash(): void {
    const high = this.slotHigh;
    const low = this.slotLow;
    const ids = this.slotId;
    const size = ids.length * 2;
    this.slotHigh = new Int32Array(size);
    this.slotLow = new Int32Array(size);
    this.slotId = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let s = 0; s < ids.length; s++) {
      if (ids[s] === -1) continue;
      let slot = ((low[s] as number) ^ Math.imul(high[s] as number, 0x9e3779b1)) & mask;
      while (this.slotId[slot] !== -1) slot = (slot + 1) & mask;
      this.slotHigh[slot] = high[s] as number;
      this.slotLow[slot] = low[s] as number;
      this.slotId[slot] = ids[s] as number;
    }
  }

  private isActive(set: readonly number[]): boolean {
    if (set.length !== this.activeCount) return false;
    for (const l of set) if (this.active[l] !== 1) return false;
    return true;
  }
}

/** Sweeps the events in address order into a table of intervals with their matching sets. */
function sweep(events: Events, sets: SetTable): FamilyTable {
  const w = events.width;
  events.sort();
  const words = events.words;
  const lists = events.lists;
  const n = events.count;
  sets.clear();
  // At most one interval per event, plus the one at address 0.
  let starts = new Uint32Array(w * (n + 1));
  let setOf = new Int32Array(n + 1);
  let count = 0;
  const record = (e: number) => {
    const id = sets.current();
    if (count > 0 && setOf[count - 1] === id) return;
    if (count === setOf.length) {
      const grown = new Uint32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
      const grownSets = new Int32Array(setOf.length * 2);
      grownSets.set(setOf);
      setOf = grownSets;
    }
    for (let k = 0; k < w; k++) starts[count * w + k] = e === -1 ? 0 : (words[e * w + k] as number);
    setOf[count++] = id;
  };
  const same = (a: number, b: number) => {
    if (w === 1) return words[a] === words[b];
    const p = a * 4;
    const q = b * 4;
    return (
      words[p] === words[q] &&
      words[p + 1] === words[q + 1] &&
      words[p + 2] === words[q + 2] &&
      words[p + 3] === words[q + 3]
    );
  };
  let i = 0;
  // The first interval starts at address 0 whether or not an event is there.
  while (i < n && isZeroPoint(words, w, i)) sets.toggle(lists[i++] as number);
  record(-1);
  while (i < n) {
    const at = i;
    while (i < n && same(i, at)) sets.toggle(lists[i++] as number);
    record(at);
  }
  return { starts: starts.subarray(0, count * w), setOf: setOf.subarray(0, count), count };
}

/**
 * index[h]: the first interval whose start's top 16 bits are h or more (count when none), so the
 * intervals starting in /16 h are [index[h], index[h + 1]) and the one before runs into it.
 */
function slashSixteenIndex(t: FamilyTable, width: number): Int32Array {
  const index = new Int32Array(65537);
  let k = 0;
  for (let h = 0; h <= 65536; h++) {
    while (k < t.count && (t.starts[k * width] as number) >>> 16 < h) k++;
    index[h] = k;
  }
  return index;
}

function isZeroPoint(words: Uint32Array, w: number, e: number): boolean {
  for (let k = 0; k < w; k++) if (words[e * w + k] !== 0) return false;
  return true;
}

/**
 * Builds an IpMatcher list by list, straight from networks as they are read (no Cidr objects):
 *   beginList(code) -> addV4 / addV6 (or hand `sink` to scanGeoIp) ... -> endList(inverse)
 *   ... -> build()
 * Each list's networks are merged to ranges, turned into toggle events, and every list's events
 * are swept once at the end.
 */
export class IpMatcherBuilder {
  private readonly codes: string[] = [];
  private readonly e4: Events;
  private readonly e6: Events;
  private readonly set = new CidrSet();
  private readonly next6 = new Uint32Array(4);
  private current = -1;
  // Streaming: a list's networks usually arrive sorted and merged (as every builder writes them),
  // so they become events as they come, adjacent ones joined, with nothing stored. The first one
  // out of order or overlapping switches the list to the CidrSet (merge and sort), which needs
  // the list's networks once more: endList() then answers false and the caller feeds them again.
  private streaming = true;
  private outOfOrder = false;
  private marks = { e4: 0, e6: 0 };
  private open4 = -1;
  private end4 = -1;
  private has6 = false;
  private readonly open6 = new Uint32Array(4);
  private readonly end6 = new Uint32Array(4);
  private readonly start6 = new Uint32Array(4);
  private readonly last6 = new Uint32Array(4);
  /** Hands a list's networks to the builder; pass it to scanGeoIp. */
  readonly sink: GeoIpSink = {
    v4: (start, prefix) => this.addV4(start, prefix),
    v6: (bytes, offset, prefix) => this.addV6(bytes, offset, prefix),
  };

  /**
   * `sizeHint`: the bytes of networks to come (a .dat file's size), used to size the event arrays
   * once instead of growing them by doubling (each growth leaves a garbage copy behind).
   */
  constructor(sizeHint = 0) {
    // An IPv4 CIDR takes at least 10 bytes on the wire, an IPv6 one 22; two events each.
    this.e4 = new Events(1, Math.ceil(sizeHint / 5));
    this.e6 = new Events(4, Math.ceil(sizeHint / 11));
  }

  /** Starts the next list; its result index is the number of lists begun before it. */
  beginList(code: string): void {
    if (this.current !== -1) throw new Error('IpMatcherBuilder: beginList before endList');
    this.current = this.codes.length;
    this.codes.push(code.toUpperCase());
    this.e4.startRun();
    this.e6.startRun();
    this.startFeed(true);
  }

  private startFeed(streaming: boolean): void {
    this.streaming = streaming;
    this.outOfOrder = false;
    this.marks = { e4: this.e4.count, e6: this.e6.count };
    this.open4 = -1;
    this.end4 = -1;
    this.has6 = false;
    this.set.reset();
  }

  /** Adds an IPv4 network (start as uint32) to the current list. */
  addV4(start: number, prefix: number): void {
    if (!this.streaming) {
      this.set.addV4(start, prefix);
      return;
    }
    if (this.outOfOrder) return;
    // (>>> takes the shift count mod 32, so /32 needs its own case.)
    const host = prefix >= 32 ? 0 : 0xffffffff >>> prefix;
    const base = (start & ~host) >>> 0;
    const end = (base | host) >>> 0;
    if (this.open4 === -1) {
      this.open4 = base;
      this.end4 = end;
    } else if (base === this.end4 + 1) this.end4 = end;
    else if (base > this.end4 + 1) {
      this.flush4();
      this.open4 = base;
      this.end4 = end;
    } else this.outOfOrder = true;
  }

  /** Adds an IPv6 network (16 bytes at bytes[offset]) to the current list. */
  addV6(bytes: Uint8Array, offset: number, prefix: number): void {
    if (!this.streaming) {
      this.set.addV6Bytes(bytes, offset, prefix);
      return;
    }
    if (this.outOfOrder) return;
    const start = this.start6;
    const last = this.last6;
    for (let k = 0; k < 4; k++) {
      const o = offset + k * 4;
      const v =
        (((bytes[o] as number) << 24) |
          ((bytes[o + 1] as number) << 16) |
          ((bytes[o + 2] as number) << 8) |
          (bytes[o + 3] as number)) >>>
        0;
      const keep = prefix - k * 32;
      start[k] = keep >= 32 ? v : keep <= 0 ? 0 : (v & (~0 << (32 - keep))) >>> 0;
      last[k] = keep >= 32 ? v : keep <= 0 ? 0xffffffff : (start[k] as number) | (0xffffffff >>> keep);
      last[k] = (last[k] as number) >>> 0;
    }
    const open6 = this.open6;
    const end6 = this.end6;
    if (!this.has6) {
      this.has6 = true;
      for (let k = 0; k < 4; k++) {
        open6[k] = start[k] as number;
        end6[k] = last[k] as number;
      }
      return;
    }
    // Where start stands against end6 + 1: equal (adjacent: extend), above (a gap: a new range),
    // below (overlap or out of order). end6 + 1 is computed word by word with its carry.
    let carry = 1;
    let order = 0;
    for (let k = 3; k >= 0; k--) {
      const sum = (end6[k] as number) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const next = sum >>> 0;
      const v = start[k] as number;
      if (v !== next) order = v > next ? 1 : -1;
    }
    // The loop ran from the low word up, so `order` holds the most significant difference.
    if (carry === 1) order = -1; // end6 was the last address: nothing can follow
    if (order === 0) for (let k = 0; k < 4; k++) end6[k] = last[k] as number;
    else if (order > 0) {
      this.flush6();
      for (let k = 0; k < 4; k++) {
        open6[k] = start[k] as number;
        end6[k] = last[k] as number;
      }
    } else this.outOfOrder = true;
  }

  private flush4(): void {
    if (this.open4 === -1) return;
    this.e4.add4(this.open4, this.current);
    if (this.end4 < 0xffffffff) this.e4.add4(this.end4 + 1, this.current);
  }

  private flush6(): void {
    if (!this.has6) return;
    this.e6.add6(this.open6, this.current);
    this.next6.set(this.end6);
    if (addPowerOfTwo(this.next6, 0)) this.e6.add6(this.next6, this.current);
  }

  /**
   * Ends the current list; an inverse list matches every address outside its networks. Answers
   * false when the list's networks came out of order: feed them again, then call endList again.
   */
  endList(inverseMatch: boolean): boolean {
    const l = this.current;
    if (l === -1) throw new Error('IpMatcherBuilder: endList without beginList');
    if (this.streaming && this.outOfOrder) {
      // Forget what streaming added and take the list again through the CidrSet.
      this.e4.count = this.marks.e4;
      this.e6.count = this.marks.e6;
      this.startFeed(false);
      return false;
    }
    const e4 = this.e4;
    const e6 = this.e6;
    if (this.streaming) {
      this.flush4();
      this.flush6();
      if (inverseMatch) {
        // Its own run, since the list's run is already in order without it.
        e4.startRun();
        e4.add4(0, l);
        e6.startRun();
        e6.add6(ZERO6, l);
      }
      this.current = -1;
      return true;
    }
    if (inverseMatch) {
      e4.add4(0, l);
      e6.add6(ZERO6, l);
    }
    const next6 = this.next6;
    this.set.ranges({
      v4: (start, end) => {
        e4.add4(start, l);
        if (end < 0xffffffff) e4.add4(end + 1, l);
      },
      v6: (start, end) => {
        e6.add6(start, l);
        next6.set(end);
        if (addPowerOfTwo(next6, 0)) e6.add6(next6, l);
      },
    });
    this.current = -1;
    return true;
  }

  /** Sweeps every list's events into the matcher. */
  build(): IpMatcher {
    if (this.current !== -1) throw new Error('IpMatcherBuilder: build before endList');
    return IpMatcher.fromTables(this.codes, this.e4, this.e6);
  }
}

const ZERO6 = new Uint32Array(4);

/**
 * A compiled set of IP lists; `codes[i]` names what index i in a match result stands for.
 * Text lookups parse into per-matcher scratch words: call one at a time.
 */
export class IpMatcher {
  /** The list codes, in result-index order. */
  readonly codes: readonly string[];
  private readonly v4: FamilyTable;
  private readonly v4Index: Int32Array;
  private readonly v6Index: Int32Array;
  private readonly v6: FamilyTable;
  private readonly setStart: Int32Array;
  private readonly setIds: Int32Array;
  private readonly scratch = new Uint32Array(4);

  private constructor(codes: readonly string[], e4: Events, e6: Events) {
    this.codes = codes;
    const sets = new SetTable(codes.length);
    this.v4 = sweep(e4, sets);
    this.v4Index = slashSixteenIndex(this.v4, 1);
    this.v6 = sweep(e6, sets);
    this.v6Index = slashSixteenIndex(this.v6, 4);
    this.setStart = new Int32Array(sets.sets.length + 1);
    let total = 0;
    sets.sets.forEach((members, k) => {
      this.setStart[k] = total;
      total += members.length;
    });
    this.setStart[sets.sets.length] = total;
    this.setIds = new Int32Array(total);
    for (const [k, members] of sets.sets.entries()) this.setIds.set(members, this.setStart[k] as number);
  }

  /** @internal The builder's way in. */
  static fromTables(codes: readonly string[], e4: Events, e6: Events): IpMatcher {
    return new IpMatcher(codes, e4, e6);
  }

  /**
   * Compiles IP lists for matching. `codes` (case-insensitive) chooses the lists and their result
   * order; without it every list, in the given order.
   */
  static compile(lists: readonly IpList[], codes?: readonly string[]): IpMatcher {
    // Entries sharing a code (possible in foreign files) count as one list.
    const byCode = new Map<string, IpList>();
    for (const l of lists) {
      const code = l.code.toUpperCase();
      const seen = byCode.get(code);
      if (seen && seen.inverseMatch !== l.inverseMatch) {
        throw new GeoError('dat_corrupt', `two lists "${code}", one with inverse_match and one without`);
      }
      byCode.set(code, seen ? { ...seen, cidrs: [...seen.cidrs, ...l.cidrs] } : l);
    }
    let chosen: IpList[];
    if (!codes) chosen = [...byCode.values()];
    else {
      chosen = [];
      for (const code of codes) {
        if (code.includes('@')) throw new GeoError('usage', `IP lists have no attributes ("${code}")`);
        const list = byCode.get(code.toUpperCase());
        if (!list) throw new GeoError('code_not_found', `no IP list "${code}"`);
        if (!chosen.includes(list)) chosen.push(list);
      }
    }
    const builder = new IpMatcherBuilder();
    for (const list of chosen) {
      builder.beginList(list.code);
      do {
        for (const cidr of list.cidrs) {
          if (cidr.ip.length === 4) builder.addV4(ipv4Number(cidr.ip), cidr.prefix);
          else builder.addV6(cidr.ip, 0, cidr.prefix);
        }
      } while (!builder.endList(list.inverseMatch));
    }
    return builder.build();
  }

  /** Number of result indexes (the length a result buffer needs). */
  get size(): number {
    return this.codes.length;
  }

  /** Number of intervals in the IPv4 and IPv6 tables (for sizing and benchmarks). */
  get intervals(): { v4: number; v6: number } {
    return { v4: this.v4.count, v6: this.v6.count };
  }

  /**
   * Writes the indexes of every list matching an address in text form (`1.2.3.4`, `2001:db8::1`)
   * into `out`, ascending, and returns how many, or -1 when the text is not an address.
   * Allocates nothing. `out` needs at least `size` elements.
   */
  match(address: string, out: Uint32Array): number {
    if (address.indexOf(':') === -1) {
      const v = parseDotted(address, 0, address.length);
      return v < 0 ? -1 : this.matchV4(v, out);
    }
    if (!parseIPv6Words(address, 0, address.length, this.scratch, 0)) return -1;
    return this.matchV6(this.scratch, 0, out);
  }

  /** As match, for an IPv4 address as a uint32 (1.2.3.4 = 0x01020304). */
  matchV4(address: number, out: Uint32Array): number {
    const t = this.v4;
    const starts = t.starts;
    // The /16 index narrows the search to the intervals that start in the address's /16 (and
    // the one running into it): usually a step or two instead of a search of the whole table.
    const top = address >>> 16;
    let lo = (this.v4Index[top] as number) - 1;
    if (lo < 0) lo = 0;
    let hi = (this.v4Index[top + 1] as number) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= address) lo = mid;
      else hi = mid - 1;
    }
    return this.copySet(t.setOf[lo] as number, out);
  }

  /** As match, for an IPv6 address as four big-endian uint32 words at words[offset]. */
  matchV6(words: Uint32Array, offset: number, out: Uint32Array): number {
    const w0 = words[offset] as number;
    const w1 = words[offset + 1] as number;
    const w2 = words[offset + 2] as number;
    const w3 = words[offset + 3] as number;
    if (w0 === 0 && w1 === 0 && w2 === 0xffff) return this.matchV4(w3, out);
    const t = this.v6;
    const s = t.starts;
    // As for IPv4: the /16 index narrows the search to the intervals of the address's /16.
    const top = w0 >>> 16;
    let lo = (this.v6Index[top] as number) - 1;
    if (lo < 0) lo = 0;
    let hi = (this.v6Index[top + 1] as number) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      const p = mid * 4;
      // starts[mid] <= address, compared word by word.
      let le: boolean;
      if (s[p] !== w0) le = (s[p] as number) < w0;
      else if (s[p + 1] !== w1) le = (s[p + 1] as number) < w1;
      else if (s[p + 2] !== w2) le = (s[p + 2] as number) < w2;
      else le = (s[p + 3] as number) <= w3;
      if (le) lo = mid;
      else hi = mid - 1;
    }
    return this.copySet(t.setOf[lo] as number, out);
  }

  /** The codes matching an address (allocates; for tools). Throws GeoError for a bad address. */
  matchCodes(address: string): string[] {
    const out = new Uint32Array(this.codes.length);
    const n = this.match(address, out);
    if (n < 0) throw new GeoError('ip_invalid', `invalid IP address "${address}"`);
    const codes: string[] = [];
    for (let k = 0; k < n; k++) codes.push(this.codes[out[k] as number] as string);
    return codes;
  }

  private copySet(set: number, out: Uint32Array): number {
    if (out.length < this.codes.length) {
      throw new RangeError(`result buffer of ${out.length} for ${this.codes.length} codes`);
    }
    const from = this.setStart[set] as number;
    const n = (this.setStart[set + 1] as number) - from;
    for (let k = 0; k < n; k++) out[k] = this.setIds[from + k] as number;
    return n;
  }
}
