// Matches an IP address against compiled IP lists and reports every list that holds it (or, for a
// list with inverse_match, every list that does not). Compiled once into one sorted table per
// family that cuts the address space where the set of matching lists changes:
//   lists -> merged ranges (CidrSet) -> toggle events -> sweep -> interval starts + set per interval
//   lookup: parse in place (or take a uint32 / four words) -> binary search -> copy the set out
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is looked up as IPv4, as v2ray does.

import { GeoError } from '../errors.js';
import type { IpList } from '../model.js';
import { CidrSet } from './cidr-set.js';
import { addPowerOfTwo, parseDotted, parseIPv6Words, type Words } from './ipv6-words.js';

/** One family's table: interval k starts at point k (width words each) and matches set setOf[k]. */
interface FamilyTable {
  readonly starts: Uint32Array;
  readonly setOf: Int32Array;
  readonly count: number;
}

/** Toggle events of one family: where a list starts or stops matching. */
class Events {
  words: Uint32Array;
  lists: Int32Array;
  count = 0;

  constructor(readonly width: number) {
    this.words = new Uint32Array(width * 1024);
    this.lists = new Int32Array(1024);
  }

  add(point: ArrayLike<number>, list: number): void {
    if (this.count === this.lists.length) {
      const words = new Uint32Array(this.words.length * 2);
      words.set(this.words);
      this.words = words;
      const lists = new Int32Array(this.lists.length * 2);
      lists.set(this.lists);
      this.lists = lists;
    }
    for (let k = 0; k < this.width; k++) this.words[this.count * this.width + k] = point[k] as number;
    this.lists[this.count++] = list;
  }

  compare(a: number, b: number): number {
    const w = this.width;
    for (let k = 0; k < w; k++) {
      const x = this.words[a * w + k] as number;
      const y = this.words[b * w + k] as number;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }
}

/** Interns sorted sets of list indexes; set 0 is the empty set. */
class SetTable {
  private readonly index = new Map<string, number>([['', 0]]);
  readonly sets: number[][] = [[]];

  intern(members: readonly number[]): number {
    const key = members.join(',');
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push([...members]);
      this.index.set(key, id);
    }
    return id;
  }
}

/** Sweeps the events in address order into a table of intervals with their matching sets. */
function sweep(events: Events, sets: SetTable): FamilyTable {
  const w = events.width;
  const order = new Int32Array(events.count);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => events.compare(a, b) || a - b);
  const starts: number[] = [];
  const setOf: number[] = [];
  // The lists matching at the current point, ascending.
  const active: number[] = [];
  const toggle = (list: number) => {
    let lo = 0;
    let hi = active.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((active[mid] as number) < list) lo = mid + 1;
      else hi = mid;
    }
    if (active[lo] === list) active.splice(lo, 1);
    else active.splice(lo, 0, list);
  };
  const record = (point: number) => {
    const id = sets.intern(active);
    if (setOf.length > 0 && setOf[setOf.length - 1] === id) return;
    for (let k = 0; k < w; k++) starts.push(point === -1 ? 0 : (events.words[point * w + k] as number));
    setOf.push(id);
  };
  let i = 0;
  // The first interval starts at address 0 whether or not an event is there.
  while (i < order.length && isZeroPoint(events, order[i] as number))
    toggle(events.lists[order[i++] as number] as number);
  record(-1);
  while (i < order.length) {
    const at = order[i] as number;
    while (i < order.length && events.compare(order[i] as number, at) === 0) {
      toggle(events.lists[order[i++] as number] as number);
    }
    record(at);
  }
  return { starts: Uint32Array.from(starts), setOf: Int32Array.from(setOf), count: setOf.length };
}

function isZeroPoint(events: Events, e: number): boolean {
  for (let k = 0; k < events.width; k++) if (events.words[e * events.width + k] !== 0) return false;
  return true;
}

/**
 * A compiled set of IP lists; `codes[i]` names what index i in a match result stands for.
 * Text lookups parse into per-matcher scratch words: call one at a time.
 */
export class IpMatcher {
  /** The list codes, in result-index order. */
  readonly codes: readonly string[];
  private readonly v4: FamilyTable;
  private readonly v6: FamilyTable;
  private readonly setStart: Int32Array;
  private readonly setIds: Int32Array;
  private readonly scratch = new Uint32Array(4);

  private constructor(lists: readonly IpList[]) {
    this.codes = lists.map((l) => l.code.toUpperCase());
    const e4 = new Events(1);
    const e6 = new Events(4);
    lists.forEach((list, l) => {
      if (list.inverseMatch) {
        e4.add([0], l);
        e6.add([0, 0, 0, 0], l);
      }
      const set = new CidrSet();
      for (const cidr of list.cidrs) set.addCidr(cidr);
      // Blocks come merged and in order; join adjacent ones so a range gives one pair of events.
      let open4 = -1;
      let end4 = -1;
      const open6 = new Uint32Array(4);
      const end6 = new Uint32Array(4);
      let has6 = false;
      let end6Overflow = false;
      const close6 = () => {
        if (!has6) return;
        e6.add(open6, l);
        if (!end6Overflow) e6.add(end6, l);
      };
      set.merge({
        v4: (start, prefix) => {
          const end = start + 2 ** (32 - prefix);
          if (open4 !== -1 && start === end4) {
            end4 = end;
            return;
          }
          if (open4 !== -1) {
            e4.add([open4], l);
            e4.add([end4], l);
          }
          open4 = start;
          end4 = end;
        },
        v6: (start: Words, prefix) => {
          const joins = has6 && !end6Overflow && start.every((v, k) => v === end6[k]);
          if (!joins) {
            close6();
            open6.set(start);
            has6 = true;
          }
          end6.set(start);
          end6Overflow = !addPowerOfTwo(end6, 128 - prefix);
        },
      });
      if (open4 !== -1) {
        e4.add([open4], l);
        if (end4 < 2 ** 32) e4.add([end4], l);
      }
      close6();
    });
    const sets = new SetTable();
    this.v4 = sweep(e4, sets);
    this.v6 = sweep(e6, sets);
    this.setStart = new Int32Array(sets.sets.length + 1);
    let total = 0;
    sets.sets.forEach((s, k) => {
      this.setStart[k] = total;
      total += s.length;
    });
    this.setStart[sets.sets.length] = total;
    this.setIds = new Int32Array(total);
    for (const [k, s] of sets.sets.entries()) this.setIds.set(s, this.setStart[k] as number);
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
    if (!codes) return new IpMatcher([...byCode.values()]);
    const chosen: IpList[] = [];
    for (const code of codes) {
      if (code.includes('@')) throw new GeoError('usage', `IP lists have no attributes ("${code}")`);
      const list = byCode.get(code.toUpperCase());
      if (!list) throw new GeoError('code_not_found', `no IP list "${code}"`);
      if (!chosen.includes(list)) chosen.push(list);
    }
    return new IpMatcher(chosen);
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
    let lo = 0;
    let hi = t.count - 1;
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
    let lo = 0;
    let hi = t.count - 1;
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
