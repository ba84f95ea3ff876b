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
export interface FamilyTable {
  readonly starts: Uint32Array;
  readonly setOf: Int32Array;
  readonly count: number;
}

/** A compiled matcher's tables (what IpMatcher looks addresses up in). */
export interface IpTables {
  readonly v4: FamilyTable;
  /** Index of the IPv4 table by the address's top bits (see prefixIndex): 2^bits + 1 slots. */
  readonly v4Index: Int32Array;
  readonly v6: FamilyTable;
  readonly v6Index: Int32Array;
  /** Set s has members setIds[setStart[s], setStart[s + 1]); set 0 is the empty set. */
  readonly setStart: Int32Array;
  readonly setIds: Int32Array;
}

/**
 * Toggle events of one family (width 1: IPv4, 4: IPv6): the points where a list starts or stops
 * matching. Each list's events arrive in address order (a run); the sweep merges the runs.
 */
class Events {
  words: Uint32Array<ArrayBufferLike>;
  lists: Int32Array<ArrayBufferLike>;
  count = 0;
  /** Where each run begins. */
  private readonly runs: number[] = [];

  /** `capacity`: events expected (an upper bound is fine: untouched pages cost no memory). */
  constructor(
    readonly width: 1 | 4,
    capacity = 1024,
  ) {
    this.words = new Uint32Array(width * Math.max(16, capacity));
    this.lists = new Int32Array(Math.max(16, capacity));
  }

  /** Doubles the capacity. */
  grow(): void {
    const words = new Uint32Array(this.words.length * 2);
    words.set(this.words);
    this.words = words;
    const lists = new Int32Array(this.lists.length * 2);
    lists.set(this.lists);
    this.lists = lists;
  }

  /** Marks the start of the next run (a list's events, in address order). */
  startRun(): void {
    if (this.runs[this.runs.length - 1] !== this.count) this.runs.push(this.count);
  }

  /** The bounds of the runs: run r is events [bounds[r], bounds[r + 1]). */
  runBounds(): number[] {
    const bounds = this.runs.filter((r) => r < this.count);
    if (bounds[0] !== 0) bounds.unshift(0);
    bounds.push(this.count);
    return bounds;
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
}

/**
 * Interns sets of list indexes; set 0 is the empty set. The sweep describes the set active at a
 * point by flags per list and a key of two 32-bit XORs of per-list random values (kept up to
 * date as lists toggle, so no key is built per interval); the table finds it in an
 * open-addressing table by that key and checks it member by member.
 */
class SetTable {
  readonly sets: number[][] = [[]];
  /** Per list, the random values its membership XORs into a set's key. */
  readonly keyHigh: Int32Array;
  readonly keyLow: Int32Array;
  /** Sets whose key collided with another set's: looked up by their members. */
  private readonly collided = new Map<string, number>();
  private slotHigh = new Int32Array(1024);
  private slotLow = new Int32Array(1024);
  private slotId = new Int32Array(1024).fill(-1);

  constructor(lists: number) {
    this.keyHigh = new Int32Array(lists);
    this.keyLow = new Int32Array(lists);
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

  /** The id of the set whose members are flagged 1 in `active` (`count` of them, key high/low). */
  intern(active: Uint8Array, count: number, high: number, low: number): number {
    if (count === 0) return 0;
    const mask = this.slotId.length - 1;
    let slot = (low ^ Math.imul(high, 0x9e3779b1)) & mask;
    for (;;) {
      const id = this.slotId[slot] as number;
      if (id === -1) break;
      if (this.slotHigh[slot] === high && this.slotLow[slot] === low) {
        const set = this.sets[id] as number[];
        let same = set.length === count;
        for (let k = 0; same && k < set.length; k++) same = active[set[k] as number] === 1;
        return same ? id : this.internCollided(active);
      }
      slot = (slot + 1) & mask;
    }
    const id = this.sets.length;
    this.sets.push(members(active));
    this.slotHigh[slot] = high;
    this.slotLow[slot] = low;
    this.slotId[slot] = id;
    if (this.sets.length * 2 > this.slotId.length) this.rehash();
    return id;
  }

  private internCollided(active: Uint8Array): number {
    const set = members(active);
    const text = set.join(',');
    let id = this.collided.get(text);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(set);
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
}

/** The lists flagged 1, ascending. */
function members(active: Uint8Array): number[] {
  const set: number[] = [];
  for (let l = 0; l < active.length; l++) if (active[l] === 1) set.push(l);
  return set;
}

/**
 * Sweeps one family's events in address order into a table of intervals with their matching
 * sets. The lists' runs are merged as the sweep goes, so no sorted copy of the events is made:
 * a binary heap of runs keyed by their next point, and the run on top goes on by itself while
 * its points stay at or below every other run's next point (lists rarely interleave point by
 * point, so the heap is touched once per stretch, not per event). Each step is written inline
 * and the two families have a function each: a small file loads mostly before V8 has compiled
 * anything, where every call costs, and one family's code would mislead the other's.
 */
function sweep(events: Events, sets: SetTable): FamilyTable {
  return events.width === 1 ? sweepNarrow(events, sets) : sweepWide(events, sets);
}

/** The heap of runs and the set being swept, shared by both families' sweeps. */
interface SweepState {
  /** Per run: its next event and its end. */
  readonly heads: Int32Array;
  readonly ends: Int32Array;
  /** Runs with events left, smallest next point first: heap[0, size). */
  readonly heap: Int32Array;
  size: number;
  /** The lists active between points: a flag per list, how many, and the set's key. */
  readonly active: Uint8Array;
}

function sweepState(events: Events, sets: SetTable): SweepState {
  const bounds = events.runBounds();
  const runs = bounds.length - 1;
  const state: SweepState = {
    heads: new Int32Array(runs),
    ends: new Int32Array(runs),
    heap: new Int32Array(runs),
    size: 0,
    active: new Uint8Array(sets.keyHigh.length),
  };
  for (let r = 0; r < runs; r++) {
    state.heads[r] = bounds[r] as number;
    state.ends[r] = bounds[r + 1] as number;
    if (state.heads[r] !== state.ends[r]) state.heap[state.size++] = r;
  }
  return state;
}

/** The IPv4 sweep: a run's next point is a number, kept in key[run]. */
function sweepNarrow(events: Events, sets: SetTable): FamilyTable {
  const words = events.words;
  const lists = events.lists;
  const n = events.count;
  const s = sweepState(events, sets);
  const { heads, ends, heap, active } = s;
  const keyHigh = sets.keyHigh;
  const keyLow = sets.keyLow;
  const key = new Float64Array(heads.length);
  for (let r = 0; r < heads.length; r++)
    key[r] = heads[r] === ends[r] ? 0 : (words[heads[r] as number] as number);
  for (let from = (s.size >> 1) - 1; from >= 0; from--) siftDownByKey(heap, s.size, from, key);
  let activeCount = 0;
  let high = 0;
  let low = 0;
  // At most one interval per event, plus the one at address 0. Interval `count - 1` is open: its
  // start is known, its set is taken when the next point comes (or at the end).
  const starts = new Uint32Array(n + 1);
  const setOf = new Int32Array(n + 1);
  let count = 1;
  let open = 0;
  while (s.size > 0) {
    const r = heap[0] as number;
    let limit = Number.POSITIVE_INFINITY;
    if (s.size > 1) limit = key[heap[1] as number] as number;
    if (s.size > 2 && (key[heap[2] as number] as number) < limit) limit = key[heap[2] as number] as number;
    let e = heads[r] as number;
    const end = ends[r] as number;
    do {
      const point = words[e] as number;
      if (point !== open) {
        // The open interval ends here with the set active now; one with the same set as the
        // interval before it joins that one.
        const id = sets.intern(active, activeCount, high, low);
        setOf[count - 1] = id;
        if (count > 1 && setOf[count - 2] === id) count--;
        starts[count++] = point;
        open = point;
      }
      const list = lists[e] as number;
      if (active[list] === 0) {
        active[list] = 1;
        activeCount++;
      } else {
        active[list] = 0;
        activeCount--;
      }
      high ^= keyHigh[list] as number;
      low ^= keyLow[list] as number;
      e++;
    } while (e < end && (words[e] as number) <= limit);
    if (e === end) heap[0] = heap[--s.size] as number;
    else {
      heads[r] = e;
      key[r] = words[e] as number;
    }
    if (s.size > 1) siftDownByKey(heap, s.size, 0, key);
  }
  const id = sets.intern(active, activeCount, high, low);
  setOf[count - 1] = id;
  if (count > 1 && setOf[count - 2] === id) count--;
  return { starts: starts.subarray(0, count), setOf: setOf.subarray(0, count), count };
}

/** Restores the heap below `from`, runs ordered by key[run]. */
function siftDownByKey(heap: Int32Array, size: number, from: number, key: Float64Array): void {
  let at = from;
  const top = heap[at] as number;
  const k = key[top] as number;
  for (;;) {
    let c = 2 * at + 1;
    if (c >= size) break;
    if (c + 1 < size && (key[heap[c + 1] as number] as number) < (key[heap[c] as number] as number)) c++;
    if ((key[heap[c] as number] as number) >= k) break;
    heap[at] = heap[c] as number;
    at = c;
  }
  heap[at] = top;
}

/** The IPv6 sweep: a run's next point is four words at words[heads[run] * 4]. */
function sweepWide(events: Events, sets: SetTable): FamilyTable {
  const words = events.words;
  const lists = events.lists;
  const n = events.count;
  const s = sweepState(events, sets);
  const { heads, ends, heap, active } = s;
  const keyHigh = sets.keyHigh;
  const keyLow = sets.keyLow;
  for (let from = (s.size >> 1) - 1; from >= 0; from--) siftDownWide(heap, s.size, from, heads, words);
  let activeCount = 0;
  let high = 0;
  let low = 0;
  const starts = new Uint32Array(4 * (n + 1));
  const setOf = new Int32Array(n + 1);
  let count = 1;
  while (s.size > 0) {
    const r = heap[0] as number;
    // The other runs' smallest next point (at words[limit]), or -1 when r is the last run.
    let limit = -1;
    if (s.size > 1) limit = (heads[heap[1] as number] as number) * 4;
    if (s.size > 2) {
      const other = (heads[heap[2] as number] as number) * 4;
      if (pointBefore(words, other, limit)) limit = other;
    }
    let e = heads[r] as number;
    const end = ends[r] as number;
    for (;;) {
      const p = e * 4;
      const q = (count - 1) * 4;
      if (
        words[p] !== starts[q] ||
        words[p + 1] !== starts[q + 1] ||
        words[p + 2] !== starts[q + 2] ||
        words[p + 3] !== starts[q + 3]
      ) {
        const id = sets.intern(active, activeCount, high, low);
        setOf[count - 1] = id;
        if (count > 1 && setOf[count - 2] === id) count--;
        const o = count * 4;
        starts[o] = words[p] as number;
        starts[o + 1] = words[p + 1] as number;
        starts[o + 2] = words[p + 2] as number;
        starts[o + 3] = words[p + 3] as number;
        count++;
      }
      const list = lists[e] as number;
      if (active[list] === 0) {
        active[list] = 1;
        activeCount++;
      } else {
        active[list] = 0;
        activeCount--;
      }
      high ^= keyHigh[list] as number;
      low ^= keyLow[list] as number;
      e++;
      if (e === end) break;
      // Go on while the next point is at or below the limit (compared word by word).
      if (limit !== -1) {
        const p2 = e * 4;
        const a = words[p2] as number;
        const b = words[limit] as number;
        if (a !== b) {
          if (a > b) break;
        } else if (pointBefore(words, limit, p2)) break;
      }
    }
    if (e === end) heap[0] = heap[--s.size] as number;
    else heads[r] = e;
    if (s.size > 1) siftDownWide(heap, s.size, 0, heads, words);
  }
  const id = sets.intern(active, activeCount, high, low);
  setOf[count - 1] = id;
  if (count > 1 && setOf[count - 2] === id) count--;
  return { starts: starts.subarray(0, count * 4), setOf: setOf.subarray(0, count), count };
}

/** Restores the heap below `from`, runs ordered by their next IPv6 point. */
function siftDownWide(
  heap: Int32Array,
  size: number,
  from: number,
  heads: Int32Array,
  words: Uint32Array<ArrayBufferLike>,
): void {
  let at = from;
  const top = heap[at] as number;
  const tp = (heads[top] as number) * 4;
  for (;;) {
    let c = 2 * at + 1;
    if (c >= size) break;
    let cp = (heads[heap[c] as number] as number) * 4;
    if (c + 1 < size) {
      const dp = (heads[heap[c + 1] as number] as number) * 4;
      if (pointBefore(words, dp, cp)) {
        c++;
        cp = dp;
      }
    }
    if (!pointBefore(words, cp, tp)) break;
    heap[at] = heap[c] as number;
    at = c;
  }
  heap[at] = top;
}

/** The IPv6 point at words[p] comes before the one at words[q]. */
function pointBefore(words: Uint32Array<ArrayBufferLike>, p: number, q: number): boolean {
  for (let k = 0; k < 4; k++) {
    const x = words[p + k] as number;
    const y = words[q + k] as number;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * The bits of an address that index a table of `count` intervals: about one interval per slot
 * (log2 of count, rounded up), at least 8 and at most 16 (a /16 index: 256 KiB).
 */
function indexBits(count: number): number {
  let bits = 8;
  while (bits < 16 && 1 << bits < count) bits++;
  return bits;
}

/**
 * index[h]: the first interval whose start's top `indexBits(count)` bits are h or more (count
 * when none), so the intervals starting in slot h are [index[h], index[h + 1]) and the one
 * before them runs into it.
 */
function prefixIndex(t: FamilyTable, width: number): Int32Array {
  const bits = indexBits(t.count);
  const shift = 32 - bits;
  const index = new Int32Array((1 << bits) + 1);
  // One walk over the intervals: the slots from the last one seen up to this interval's point
  // go to this interval.
  let from = 0;
  for (let k = 0; k < t.count; k++) {
    const h = (t.starts[k * width] as number) >>> shift;
    if (h === from) index[from++] = k;
    else if (h > from) {
      index.fill(k, from, h + 1);
      from = h + 1;
    }
  }
  index.fill(t.count, from);
  return index;
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
  /** The IPv4 range being joined while streaming (open4 -1: none yet). */
  private open4 = -1;
  private end4 = -1;
  /** The IPv6 range being joined while streaming: start and last address, four words each. */
  private has6 = false;
  private readonly open6 = new Uint32Array(4);
  private readonly end6 = new Uint32Array(4);
  private readonly one4 = new Uint32Array(1);
  private readonly one6 = new Uint32Array(4);
  private readonly onePrefix = new Uint8Array(1);
  /** Hands a list's networks to the builder, a batch at a time; pass it to scanGeoIp. */
  readonly sink: GeoIpSink = {
    v4: (starts, prefixes, n) => this.addV4Batch(starts, prefixes, n),
    v6: (words, prefixes, n) => this.addV6Batch(words, prefixes, n),
  };

  /**
   * `sizeHint`: the bytes of networks to come (a .dat file's size), used to size the event arrays
   * once instead of growing them by doubling (each growth leaves a garbage copy behind).
   */
  constructor(sizeHint = 0) {
    // An IPv4 CIDR takes 10 bytes on the wire, an IPv6 one 22 (8 and 20 for a /0, which leaves
    // its prefix out); two events each. The arrays grow past that if they must.
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
    this.one4[0] = start;
    this.onePrefix[0] = prefix;
    this.addV4Batch(this.one4, this.onePrefix, 1);
  }

  /** Adds an IPv6 network (16 bytes at bytes[offset]) to the current list. */
  addV6(bytes: Uint8Array, offset: number, prefix: number): void {
    for (let k = 0; k < 4; k++) {
      const o = offset + k * 4;
      this.one6[k] =
        (((bytes[o] as number) << 24) |
          ((bytes[o + 1] as number) << 16) |
          ((bytes[o + 2] as number) << 8) |
          (bytes[o + 3] as number)) >>>
        0;
    }
    this.onePrefix[0] = prefix;
    this.addV6Batch(this.one6, this.onePrefix, 1);
  }

  /**
   * Adds IPv4 networks k < n (starts[k] as uint32, prefixes[k]). While streaming, each network
   * joins the open range when adjacent, or closes it into two events when past it; one that
   * goes back marks the list out of order. One loop, no call per network: a small file loads
   * mostly before V8 has compiled anything, where every call costs.
   */
  addV4Batch(starts: Uint32Array, prefixes: Uint8Array, n: number): void {
    if (!this.streaming) {
      for (let k = 0; k < n; k++) this.set.addV4(starts[k] as number, prefixes[k] as number);
      return;
    }
    if (this.outOfOrder) return;
    const e = this.e4;
    // At most two events per network: make room once for the batch.
    while (e.count + 2 * n > e.lists.length) e.grow();
    const words = e.words;
    const lists = e.lists;
    let count = e.count;
    const list = this.current;
    // Kept as uint32 arithmetic throughout (a sum past 2^32 would make V8 recompile for doubles).
    let has = this.open4 !== -1;
    let open = has ? this.open4 : 0;
    let last = has ? this.end4 : 0;
    for (let k = 0; k < n; k++) {
      const prefix = prefixes[k] as number;
      // (>>> takes the shift count mod 32, so /32 needs its own case.)
      const host = prefix >= 32 ? 0 : 0xffffffff >>> prefix;
      const base = ((starts[k] as number) & ~host) >>> 0;
      const end = (base | host) >>> 0;
      // The address after the open range (0 when it ends at the last address: nothing follows).
      const after = (last + 1) >>> 0;
      if (!has) {
        has = true;
        open = base;
      } else if (after !== 0 && base > after) {
        words[count] = open;
        lists[count++] = list;
        words[count] = after;
        lists[count++] = list;
        open = base;
      } else if (after === 0 || base !== after) {
        this.outOfOrder = true;
        break;
      }
      last = end;
    }
    e.count = count;
    this.open4 = has ? open : -1;
    this.end4 = has ? last : -1;
  }

  /** As addV4Batch for IPv6 networks k < n (words[4k..4k+3], prefixes[k]). */
  addV6Batch(words: Uint32Array, prefixes: Uint8Array, n: number): void {
    if (!this.streaming) {
      for (let k = 0; k < n; k++) this.set.addV6Words(words, k * 4, prefixes[k] as number);
      return;
    }
    if (this.outOfOrder) return;
    const open6 = this.open6;
    const end6 = this.end6;
    const list = this.current;
    const e = this.e6;
    // At most two events per network: make room once for the batch.
    while (e.count + 2 * n > e.lists.length) e.grow();
    const events = e.words;
    const lists = e.lists;
    let count = e.count;
    for (let k = 0; k < n; k++) {
      const prefix = prefixes[k] as number;
      const p = k * 4;
      // The network's first (s) and last (l) address, word by word.
      let s0 = words[p] as number;
      let s1 = words[p + 1] as number;
      let s2 = words[p + 2] as number;
      let s3 = words[p + 3] as number;
      let l0 = s0;
      let l1 = s1;
      let l2 = s2;
      let l3 = s3;
      if (prefix < 128) {
        if (prefix < 32) {
          s0 = prefix === 0 ? 0 : (s0 & (~0 << (32 - prefix))) >>> 0;
          l0 = (s0 | (0xffffffff >>> prefix)) >>> 0;
          s1 = s2 = s3 = 0;
          l1 = l2 = l3 = 0xffffffff;
        } else if (prefix < 64) {
          s1 = prefix === 32 ? 0 : (s1 & (~0 << (64 - prefix))) >>> 0;
          l1 = (s1 | (0xffffffff >>> (prefix - 32))) >>> 0;
          s2 = s3 = 0;
          l2 = l3 = 0xffffffff;
        } else if (prefix < 96) {
          s2 = prefix === 64 ? 0 : (s2 & (~0 << (96 - prefix))) >>> 0;
          l2 = (s2 | (0xffffffff >>> (prefix - 64))) >>> 0;
          s3 = 0;
          l3 = 0xffffffff;
        } else {
          s3 = prefix === 96 ? 0 : (s3 & (~0 << (128 - prefix))) >>> 0;
          l3 = (s3 | (0xffffffff >>> (prefix - 96))) >>> 0;
        }
      }
      if (this.has6) {
        // Where the start stands against end6 + 1 (computed with its carry): equal (adjacent:
        // extend), above (a gap: close the open range), below (overlap or out of order).
        const n3 = ((end6[3] as number) + 1) >>> 0;
        let n2 = end6[2] as number;
        let n1 = end6[1] as number;
        let n0 = end6[0] as number;
        if (n3 === 0) {
          n2 = (n2 + 1) >>> 0;
          if (n2 === 0) {
            n1 = (n1 + 1) >>> 0;
            if (n1 === 0) {
              n0 = (n0 + 1) >>> 0;
              // end6 was the last address: nothing can follow it.
              if (n0 === 0) {
                this.outOfOrder = true;
                break;
              }
            }
          }
        }
        // -1, 0, 1: the start below, at or above end6 + 1 (compared, not subtracted: uint32 stays).
        const order =
          s0 !== n0
            ? s0 < n0
              ? -1
              : 1
            : s1 !== n1
              ? s1 < n1
                ? -1
                : 1
              : s2 !== n2
                ? s2 < n2
                  ? -1
                  : 1
                : s3 !== n3
                  ? s3 < n3
                    ? -1
                    : 1
                  : 0;
        if (order < 0) {
          this.outOfOrder = true;
          break;
        }
        if (order > 0) {
          const q = count * 4;
          events[q] = open6[0] as number;
          events[q + 1] = open6[1] as number;
          events[q + 2] = open6[2] as number;
          events[q + 3] = open6[3] as number;
          events[q + 4] = n0;
          events[q + 5] = n1;
          events[q + 6] = n2;
          events[q + 7] = n3;
          lists[count++] = list;
          lists[count++] = list;
          open6[0] = s0;
          open6[1] = s1;
          open6[2] = s2;
          open6[3] = s3;
        }
      } else {
        this.has6 = true;
        open6[0] = s0;
        open6[1] = s1;
        open6[2] = s2;
        open6[3] = s3;
      }
      end6[0] = l0;
      end6[1] = l1;
      end6[2] = l2;
      end6[3] = l3;
    }
    e.count = count;
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
    return IpMatcher.fromEvents(this.codes, this.e4, this.e6);
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
  /** How far an address's top word is shifted to its index slot (32 - the index's bits). */
  private readonly v4Shift: number;
  private readonly v6Shift: number;
  private readonly v6: FamilyTable;
  private readonly setStart: Int32Array;
  private readonly setIds: Int32Array;
  private readonly scratch = new Uint32Array(4);

  private constructor(codes: readonly string[], tables: IpTables) {
    this.codes = codes;
    this.v4 = tables.v4;
    this.v4Index = tables.v4Index;
    this.v6 = tables.v6;
    this.v6Index = tables.v6Index;
    // An index of 2^bits + 1 slots: clz32(2^bits) = 31 - bits.
    this.v4Shift = Math.clz32(tables.v4Index.length - 1) + 1;
    this.v6Shift = Math.clz32(tables.v6Index.length - 1) + 1;
    this.setStart = tables.setStart;
    this.setIds = tables.setIds;
  }

  /** @internal The builder's way in: sweeps the events into tables. */
  static fromEvents(codes: readonly string[], e4: Events, e6: Events): IpMatcher {
    const sets = new SetTable(codes.length);
    const v4 = sweep(e4, sets);
    const v4Index = prefixIndex(v4, 1);
    const v6 = sweep(e6, sets);
    const v6Index = prefixIndex(v6, 4);
    const setStart = new Int32Array(sets.sets.length + 1);
    let total = 0;
    sets.sets.forEach((members, k) => {
      setStart[k] = total;
      total += members.length;
    });
    setStart[sets.sets.length] = total;
    const setIds = new Int32Array(total);
    for (const [k, members] of sets.sets.entries()) setIds.set(members, setStart[k] as number);
    return new IpMatcher(codes, { v4, v4Index, v6, v6Index, setStart, setIds });
  }

  /** @internal A matcher over tables built elsewhere (the WebAssembly core, src/geo/ip/ip-core.ts). */
  static fromTables(codes: readonly string[], tables: IpTables): IpMatcher {
    return new IpMatcher(codes, tables);
  }

  /** @internal The tables, to compare two builds of the same lists. */
  get tables(): IpTables {
    const { v4, v4Index, v6, v6Index, setStart, setIds } = this;
    return { v4, v4Index, v6, v6Index, setStart, setIds };
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

  /**
   * As match, for an IPv4 address as a uint32 (1.2.3.4 = 0x01020304) or the same 32 bits as an
   * int32 (`x | 0`, as an Int32Array holds it). The int32 form is the fast one to pass: V8 keeps
   * it a small integer, where an address from 128.0.0.0 up as a uint32 is a boxed number each
   * time it crosses a call the compiler did not inline.
   */
  matchV4(ip: number, out: Uint32Array): number {
    const address = ip >>> 0;
    const t = this.v4;
    const starts = t.starts;
    // The index narrows the search to the intervals that start in the address's slot (its top
    // 8-16 bits) and the one running into it: usually a step or two instead of a search of the
    // whole table.
    const top = address >>> this.v4Shift;
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
    // As for IPv4: the index narrows the search to the intervals of the address's slot.
    const top = w0 >>> this.v6Shift;
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
