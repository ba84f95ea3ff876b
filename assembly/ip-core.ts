// AssemblyScript: the IP matcher's build core, compiled to WebAssembly by scripts/generate-wasm.js
// into src/geo/gen/ip-core-wasm.ts (committed, checked by regeneration in CI).
//
// The same build as src/geo/ip/ip-matcher.ts (IpMatcherBuilder + the sweep) for files in the
// encoding builders write, as code that runs at close to full speed from its first call: a
// process that loads a few lists (cn + private) is done before V8 would have optimized the
// JavaScript. The JavaScript side (src/geo/ip/ip-core.ts) drives it:
//   begin(lists, cap4, cap6, inputSize) -> per list: beginList, scanEntry per 64 KiB piece of
//   each entry (read into the input buffer), endList -> sweep() -> the tables, from the header.
// Anything this core does not take (a CIDR in another field order, an unknown field, a list out
// of order, a field longer than a piece, a corrupt message) makes scanEntry or endList answer
// below 0, and the JavaScript builder does the whole build instead (with its checked reader and
// its errors).
//
// Memory: regions from heap.alloc (the stub runtime's bump allocator, which grows the memory);
// an instance serves one build and is then dropped.

// ---- lists and their set keys --------------------------------------------------------------

let listCount: i32 = 0;
/** Whether a set's key is its membership bits (64 lists or fewer). */
let exactKeys: bool = false;
/** Per list: the random values its membership XORs into a set's key (i32 each). */
let keyHigh: usize = 0;
let keyLow: usize = 0;
/** Per list: 1 while the sweep is inside one of its ranges (u8 each). */
let active: usize = 0;

// ---- events: the points where a list starts or stops matching, per family -------------------

/** IPv4: point words4[k] (u32). */
let words4: usize = 0;
let count4: i32 = 0;
let cap4: i32 = 0;
/**
 * IPv6: point k at words6 + 16k, as the four big-endian u32 words the JavaScript side reads
 * (kept here as two u64 halves, each stored with its words swapped: see storeHalf).
 */
let words6: usize = 0;
let count6: i32 = 0;
let cap6: i32 = 0;
/**
 * The runs of each family: run r is one list's events (runList[r]) in address order, from
 * runs[r] to the next run's start. Every event of a run belongs to its list, so events carry no
 * list of their own.
 */
let runs4: usize = 0;
let runList4: usize = 0;
let runCount4: i32 = 0;
let runs6: usize = 0;
let runList6: usize = 0;
let runCount6: i32 = 0;

// ---- the list being read: its open ranges, joined while networks stay adjacent --------------

let current: i32 = -1;
let has4: bool = false;
let open4: u32 = 0;
let last4: u32 = 0;
let has6: bool = false;
/** The open IPv6 range: its first address (high, low halves) and its last. */
let openHigh: u64 = 0;
let openLow: u64 = 0;
let endHigh: u64 = 0;
let endLow: u64 = 0;

/**
 * What the JavaScript side reads back, as i32 at header + 4k: 0 the input buffer, 1 the
 * inverse_match of the entry read; from HEADER_V4 and HEADER_V6 a family's table (starts, sets,
 * count, lookup index, the index's length); from HEADER_SETS the number of sets, where each
 * set's members start, and the members (src/geo/ip/ip-core.ts reads the same layout).
 */
let header: usize = 0;
const HEADER_V4: i32 = 2;
const HEADER_V6: i32 = 7;
const HEADER_SETS: i32 = 12;
const HEADER_SIZE: i32 = 15;

// ---- what scanEntry answers ------------------------------------------------------------------

/** Something this core does not take: the JavaScript builder does the build. */
const UNUSUAL: i32 = -1;
/** A list's networks out of order or overlapping: the JavaScript builder does the build. */
const OUT_OF_ORDER: i32 = -2;

/** The next value of a xorshift32 sequence. */
function xorshift(value: i32): i32 {
  let x = value;
  x ^= x << 13;
  x ^= <i32>(<u32>x >>> 17);
  x ^= x << 5;
  return x;
}

/** Room for n (at least one) 32-bit values. */
function allocI32(n: i32): usize {
  return heap.alloc((<usize>max<i32>(n, 1)) << 2);
}

/**
 * Starts a build of `lists` lists whose events fit in cap4 IPv4 and cap6 IPv6 points (the
 * caller bounds them from the bytes it will hand over: two events per network at most), with an
 * input buffer of inputSize bytes for the entries' pieces. Answers the header's address.
 */
export function begin(lists: i32, capacity4: i32, capacity6: i32, inputSize: i32): usize {
  header = allocI32(HEADER_SIZE);
  memory.fill(header, 0, (<usize>HEADER_SIZE) << 2);
  store<i32>(header, <i32>heap.alloc(<usize>max<i32>(inputSize, 1)));
  listCount = lists;
  keyHigh = allocI32(lists);
  keyLow = allocI32(lists);
  active = heap.alloc(<usize>max<i32>(lists, 1));
  memory.fill(active, 0, <usize>lists);
  // Up to 64 lists, list l's key is bit l of the 64: a set's key is then its members exactly,
  // and no set needs its members compared. Above that, xorshift32 values from a fixed seed.
  exactKeys = lists <= 64;
  let x: i32 = <i32>0x9e3779b9;
  for (let l = 0; l < lists; l++) {
    if (exactKeys) {
      store<i32>(keyHigh + ((<usize>l) << 2), l >= 32 ? 1 << (l - 32) : 0);
      store<i32>(keyLow + ((<usize>l) << 2), l < 32 ? 1 << l : 0);
      continue;
    }
    x = xorshift(x);
    store<i32>(keyHigh + ((<usize>l) << 2), x);
    x = xorshift(x);
    store<i32>(keyLow + ((<usize>l) << 2), x);
  }
  cap4 = capacity4;
  cap6 = capacity6;
  words4 = allocI32(cap4);
  words6 = allocI32(cap6 * 4);
  count4 = 0;
  count6 = 0;
  runs4 = allocI32(2 * lists + 2);
  runList4 = allocI32(2 * lists + 2);
  runs6 = allocI32(2 * lists + 2);
  runList6 = allocI32(2 * lists + 2);
  runCount4 = 0;
  runCount6 = 0;
  current = -1;
  return header;
}

/**
 * Starts a run of the current list in one family (run starts at `runs`, their lists at
 * `runList`, `runCount` of them, `count` events so far), taking over the last run when that one
 * is still empty. Answers the new number of runs.
 */
function startRun(runs: usize, runList: usize, runCount: i32, count: i32): i32 {
  let n = runCount;
  if (n === 0 || load<i32>(runs + ((<usize>(n - 1)) << 2)) !== count) {
    store<i32>(runs + ((<usize>n) << 2), count);
    n++;
  }
  store<i32>(runList + ((<usize>(n - 1)) << 2), current);
  return n;
}

function startRuns(): void {
  runCount4 = startRun(runs4, runList4, runCount4, count4);
  runCount6 = startRun(runs6, runList6, runCount6, count6);
}

/** Starts list `list` (lists are begun in index order). */
export function beginList(list: i32): void {
  current = list;
  startRuns();
  has4 = false;
  has6 = false;
}

/**
 * Reads the fields of a GeoIP message (1 country_code, 2 cidr, 3 inverse_match, 5 code) that lie
 * whole in [p, p + length), a piece of the current entry, into the current list. Answers how
 * many bytes it took (a field cut by the piece's end waits for the next piece; after the last
 * piece nothing may be left), or UNUSUAL / OUT_OF_ORDER (nothing to report from here: the
 * JavaScript builder takes over and says what is wrong, where). The entry's inverse_match is
 * in the header after its last piece.
 */
export function scanEntry(p: usize, length: i32, flags: i32): i32 {
  // flags: 1 this piece ends the entry, 2 it starts it.
  const last = (flags & 1) !== 0;
  if ((flags & 2) !== 0) store<i32>(header, 0, 4);
  let pos = p;
  const end = p + <usize>length;
  while (pos < end) {
    const tag = load<u8>(pos);
    if (tag === 0x12) {
      // A CIDR as builders write it: 0x12 len 0x0a 4|16 address [0x10 prefix (a varint)].
      if (pos + 2 > end) break;
      const len = <usize>load<u8>(pos, 1);
      const cidrEnd = pos + 2 + len;
      if (len >= 0x80) return UNUSUAL;
      if (cidrEnd > end) break;
      if (len < 2 || load<u8>(pos, 2) !== 0x0a) return UNUSUAL;
      const size = <usize>load<u8>(pos, 3);
      const addressEnd = pos + 4 + size;
      if (addressEnd > cidrEnd) return UNUSUAL;
      let prefix: u32 = 0;
      if (addressEnd < cidrEnd) {
        if (load<u8>(addressEnd) !== 0x10 || Hot.varintEnd(addressEnd + 1, cidrEnd) !== cidrEnd)
          return UNUSUAL;
        // Up to 128 fits two bytes; anything longer is too long a prefix anyway.
        if (cidrEnd - addressEnd > 3) return UNUSUAL;
        for (let q = cidrEnd - 1; q > addressEnd; q--) prefix = (prefix << 7) | (load<u8>(q) & 0x7f);
      }
      let r: i32;
      if (size === 4) {
        if (prefix > 32) return UNUSUAL;
        r = Hot.network4(bswap<u32>(load<u32>(pos, 4)), prefix);
      } else if (size === 16) {
        if (prefix > 128) return UNUSUAL;
        r = Hot.network6(pos + 4, prefix);
      } else return UNUSUAL;
      if (r < 0) return r;
      pos = cidrEnd;
    } else if (tag === 0x0a || tag === 0x2a) {
      // country_code / code: the caller has it from the file's index.
      const at = Hot.varintEnd(pos + 1, end);
      if (at === 0) {
        if (end - pos > 11) return UNUSUAL;
        break;
      }
      let n: u64 = 0;
      for (let k: usize = 0; pos + 1 + k < at; k++)
        n |= (<u64>(load<u8>(pos + 1 + k) & 0x7f)) << (7 * <u64>k);
      if (n > <u64>(end - at)) break;
      pos = at + <usize>n;
    } else if (tag === 0x18) {
      const at = Hot.varintEnd(pos + 1, end);
      if (at === 0) {
        if (end - pos > 11) return UNUSUAL;
        break;
      }
      let bits: u32 = 0;
      for (let q = pos + 1; q < at; q++) bits |= load<u8>(q) & 0x7f;
      store<i32>(header, bits !== 0 ? 1 : 0, 4);
      pos = at;
    } else return UNUSUAL;
  }
  if (last && pos < end) return UNUSUAL;
  return <i32>(pos - p);
}

/** Ends the current list: closes its open ranges; an inverse list gets a point at 0 per family. */
export function endList(inverse: i32): i32 {
  if (count4 + 3 > cap4 || count6 + 3 > cap6) return UNUSUAL;
  if (has4) {
    Hot.add4(open4);
    if (last4 !== 0xffffffff) Hot.add4(last4 + 1);
  }
  if (has6) {
    Hot.add6(openHigh, openLow);
    // end + 1, unless end is the last address.
    const nextLow = endLow + 1;
    const nextHigh = nextLow === 0 ? endHigh + 1 : endHigh;
    if (nextLow !== 0 || nextHigh !== 0) Hot.add6(nextHigh, nextLow);
  }
  if (inverse !== 0) {
    // Its own runs, since the list's runs are already in order without these points.
    startRuns();
    Hot.add4(0);
    Hot.add6(0, 0);
  }
  current = -1;
  return 0;
}

// ---- sets of lists ---------------------------------------------------------------------------

/** Set s has members pool[setStart[s], setStart[s + 1]); set 0 is the empty set. */
let setStart: usize = 0;
let setCap: i32 = 0;
let setCount: i32 = 0;
let pool: usize = 0;
let poolCap: i32 = 0;
let poolUsed: i32 = 0;
/** Open addressing by the set's key (high, low); -1: an empty slot. */
let slotHigh: usize = 0;
let slotLow: usize = 0;
let slotId: usize = 0;
let slotCount: i32 = 0;

function initSets(): void {
  // (Key 0 is the empty set, id 0.)
  lastHigh = lastLow = lastId = otherHigh = otherLow = otherId = 0;
  setCap = 1024;
  setStart = allocI32(setCap + 1);
  store<i32>(setStart, 0);
  store<i32>(setStart, 0, 4);
  setCount = 1;
  poolCap = 4096;
  pool = allocI32(poolCap);
  poolUsed = 0;
  slotCount = 1024;
  slotHigh = allocI32(slotCount);
  slotLow = allocI32(slotCount);
  slotId = allocI32(slotCount);
  memory.fill(slotId, 0xff, (<usize>slotCount) << 2);
}

function slotOf(h: i32, l: i32, mask: i32): i32 {
  return (l ^ (h * <i32>0x9e3779b1)) & mask;
}

/** Whether set id has exactly the active lists (`count` of them, flagged in `active`) as members. */
function sameMembers(id: i32, count: i32): bool {
  const from = load<i32>(setStart + ((<usize>id) << 2));
  const to = load<i32>(setStart + ((<usize>(id + 1)) << 2));
  if (to - from !== count) return false;
  for (let k = from; k < to; k++) {
    if (load<u8>(active + <usize>load<i32>(pool + ((<usize>k) << 2))) !== 1) return false;
  }
  return true;
}

function rehash(): void {
  const oldHigh = slotHigh;
  const oldLow = slotLow;
  const oldId = slotId;
  const oldCount = slotCount;
  slotCount = oldCount * 2;
  slotHigh = allocI32(slotCount);
  slotLow = allocI32(slotCount);
  slotId = allocI32(slotCount);
  memory.fill(slotId, 0xff, (<usize>slotCount) << 2);
  const mask = slotCount - 1;
  for (let s = 0; s < oldCount; s++) {
    const id = load<i32>(oldId + ((<usize>s) << 2));
    if (id === -1) continue;
    const h = load<i32>(oldHigh + ((<usize>s) << 2));
    const l = load<i32>(oldLow + ((<usize>s) << 2));
    let slot = slotOf(h, l, mask);
    while (load<i32>(slotId + ((<usize>slot) << 2)) !== -1) slot = (slot + 1) & mask;
    store<i32>(slotHigh + ((<usize>slot) << 2), h);
    store<i32>(slotLow + ((<usize>slot) << 2), l);
    store<i32>(slotId + ((<usize>slot) << 2), id);
  }
}

/**
 * The id of the set of the lists active now: `count` of them, flagged in `active`, key (high,
 * low); a new id the first time a set is seen.
 */
function intern(count: i32, high: i32, low: i32): i32 {
  if (count === 0) return 0;
  const mask = slotCount - 1;
  let slot = slotOf(high, low, mask);
  for (;;) {
    const id = load<i32>(slotId + ((<usize>slot) << 2));
    if (id === -1) break;
    // Same key: the same set unless two sets' keys collide, so the members decide.
    if (
      load<i32>(slotHigh + ((<usize>slot) << 2)) === high &&
      load<i32>(slotLow + ((<usize>slot) << 2)) === low &&
      (exactKeys || sameMembers(id, count))
    )
      return id;
    slot = (slot + 1) & mask;
  }
  const id = setCount++;
  if (setCount + 1 > setCap) {
    const grown = allocI32(setCap * 2 + 1);
    memory.copy(grown, setStart, (<usize>(setCap + 1)) << 2);
    setStart = grown;
    setCap *= 2;
  }
  if (poolUsed + count > poolCap) {
    let cap = poolCap * 2;
    while (poolUsed + count > cap) cap *= 2;
    const grown = allocI32(cap);
    memory.copy(grown, pool, (<usize>poolUsed) << 2);
    pool = grown;
    poolCap = cap;
  }
  for (let l = 0; l < listCount; l++) {
    if (load<u8>(active + <usize>l) === 1) {
      store<i32>(pool + ((<usize>poolUsed) << 2), l);
      poolUsed++;
    }
  }
  store<i32>(setStart + ((<usize>setCount) << 2), poolUsed);
  store<i32>(slotHigh + ((<usize>slot) << 2), high);
  store<i32>(slotLow + ((<usize>slot) << 2), low);
  store<i32>(slotId + ((<usize>slot) << 2), id);
  if (setCount * 2 > slotCount) rehash();
  return id;
}

/** No list active (each family's sweep starts so). */
function resetActive(): void {
  memory.fill(active, 0, <usize>listCount);
}

// ---- the sweep -------------------------------------------------------------------------------

/**
 * The runs of one family being swept: run r's next event heads[r], its end ends[r] and its list
 * lists[r]; a heap of the runs with events left.
 */
let heads: usize = 0;
let ends: usize = 0;
let lists: usize = 0;
let runHeap: usize = 0;
let heapSize: i32 = 0;
/** IPv4: each run's next point, as a u64 (so that "no limit" is above every point). */
let keys: usize = 0;

/** Sets up a family's runs (run r from runs[r] to the next run's start, or count) and its heap. */
function prepareRuns(runs: usize, runList: usize, runCount: i32, count: i32): void {
  heads = allocI32(runCount);
  ends = allocI32(runCount);
  lists = allocI32(runCount);
  runHeap = allocI32(runCount);
  keys = heap.alloc((<usize>max<i32>(runCount, 1)) << 3);
  heapSize = 0;
  for (let r = 0; r < runCount; r++) {
    const from = load<i32>(runs + ((<usize>r) << 2));
    const to = r + 1 < runCount ? load<i32>(runs + ((<usize>(r + 1)) << 2)) : count;
    store<i32>(heads + ((<usize>r) << 2), from);
    store<i32>(ends + ((<usize>r) << 2), to);
    store<i32>(lists + ((<usize>r) << 2), load<i32>(runList + ((<usize>r) << 2)));
    if (from !== to) {
      store<i32>(runHeap + ((<usize>heapSize) << 2), r);
      heapSize++;
    }
  }
}

/** Restores the heap below `from`, runs ordered by keys[run]. */
function siftDownByKey(from: i32): void {
  let at = from;
  const top = Hot.heapAt(at);
  const k = Hot.keyOf(top);
  for (;;) {
    let c = 2 * at + 1;
    if (c >= heapSize) break;
    if (c + 1 < heapSize && Hot.keyOf(Hot.heapAt(c + 1)) < Hot.keyOf(Hot.heapAt(c))) c++;
    if (Hot.keyOf(Hot.heapAt(c)) >= k) break;
    store<i32>(runHeap + ((<usize>at) << 2), Hot.heapAt(c));
    at = c;
  }
  store<i32>(runHeap + ((<usize>at) << 2), top);
}

/**
 * The last two sets interned and their keys, for exact keys (64 lists or fewer): intervals
 * mostly alternate between a few sets, and a key then needs no look-up.
 */
let lastHigh: i32 = 0;
let lastLow: i32 = 0;
let lastId: i32 = 0;
let otherHigh: i32 = 0;
let otherLow: i32 = 0;
let otherId: i32 = 0;

/** Restores the heap below `from`, runs ordered by their next IPv6 point. */
function siftDownWide(from: i32): void {
  let at = from;
  const top = Hot.heapAt(at);
  const tp = load<i32>(heads + ((<usize>top) << 2));
  for (;;) {
    let c = 2 * at + 1;
    if (c >= heapSize) break;
    let cp = load<i32>(heads + ((<usize>Hot.heapAt(c)) << 2));
    if (c + 1 < heapSize) {
      const dp = load<i32>(heads + ((<usize>Hot.heapAt(c + 1)) << 2));
      if (Hot.before6(dp, cp)) {
        c++;
        cp = dp;
      }
    }
    if (!Hot.before6(cp, tp)) break;
    store<i32>(runHeap + ((<usize>at) << 2), Hot.heapAt(c));
    at = c;
  }
  store<i32>(runHeap + ((<usize>at) << 2), top);
}

/** Sweeps both families into interval tables, their lookup indexes and the sets (see header). */
export function sweep(): void {
  initSets();
  resetActive();
  Hot.sweep4();
  // Each family starts with no list active (an inverse list may still be active at the top).
  resetActive();
  Hot.sweep6();
  store<i32>(header, setCount, 4 * HEADER_SETS);
  store<i32>(header, <i32>setStart, 4 * (HEADER_SETS + 1));
  store<i32>(header, <i32>pool, 4 * (HEADER_SETS + 2));
}

/**
 * The steps run per network, per event or per interval, inlined where they are used: every
 * function that runs hot gets its own optimizing compile in V8, and a small build (cn + private)
 * is over before those compiles are. Fewer, larger hot functions mean fewer compiles running
 * beside the build (measured: see docs/benchmarks.md, "cn+private").
 */
// biome-ignore lint/complexity/noStaticOnlyClass: AssemblyScript inlines (@inline) methods, not plain functions that Biome would accept.
class Hot {
  @inline static add4(point: u32): void {
    store<u32>(words4 + ((<usize>count4) << 2), point);
    count4++;
  }

  @inline static add6(high: u64, low: u64): void {
    const p = words6 + ((<usize>count6) << 4);
    Hot.storeHalf(p, high);
    Hot.storeHalf(p + 8, low);
    count6++;
  }

  /**
   * Stores a u64 half of an IPv6 point so that its four bytes from p read back as the half's top
   * 32 bits, and the next four as its low 32 bits (the big-endian word order of the tables).
   */
  @inline static storeHalf(p: usize, half: u64): void {
    store<u64>(p, rotr<u64>(half, 32));
  }

  @inline static loadHalf(p: usize): u64 {
    return rotr<u64>(load<u64>(p), 32);
  }

  /** Takes an IPv4 network of the current list (host bits as in the file). */
  @inline static network4(start: u32, prefix: u32): i32 {
    if (count4 + 2 > cap4) return UNUSUAL;
    const host: u32 = prefix >= 32 ? 0 : <u32>0xffffffff >>> prefix;
    const base = start & ~host;
    const end = base | host;
    // The address after the open range (0 when it ends at the last address: nothing follows).
    const after = last4 + 1;
    if (!has4) {
      has4 = true;
      open4 = base;
    } else if (after !== 0 && base > after) {
      Hot.add4(open4);
      Hot.add4(after);
      open4 = base;
    } else if (after === 0 || base !== after) return OUT_OF_ORDER;
    last4 = end;
    return 0;
  }

  /** Takes an IPv6 network of the current list, its 16 address bytes at p (big-endian). */
  @inline static network6(p: usize, prefix: u32): i32 {
    if (count6 + 2 > cap6) return UNUSUAL;
    let high = bswap<u64>(load<u64>(p));
    let low = bswap<u64>(load<u64>(p, 8));
    let finalHigh = high;
    let finalLow = low;
    // The network's first and last address (>>> takes the count mod 64: /0 and /64 apart).
    if (prefix < 64) {
      const host: u64 = prefix === 0 ? u64.MAX_VALUE : u64.MAX_VALUE >>> <u64>prefix;
      high &= ~host;
      finalHigh = high | host;
      low = 0;
      finalLow = u64.MAX_VALUE;
    } else if (prefix < 128) {
      const host: u64 = prefix === 64 ? u64.MAX_VALUE : u64.MAX_VALUE >>> <u64>(prefix - 64);
      low &= ~host;
      finalLow = low | host;
    }
    if (has6) {
      // end + 1, with its carry; the start against it: equal (adjacent: extend), above (a gap:
      // close the open range), below (overlap or out of order).
      const nextLow = endLow + 1;
      const nextHigh = nextLow === 0 ? endHigh + 1 : endHigh;
      // end was the last address: nothing can follow it.
      if (nextLow === 0 && nextHigh === 0) return OUT_OF_ORDER;
      if (high < nextHigh || (high === nextHigh && low < nextLow)) return OUT_OF_ORDER;
      if (high !== nextHigh || low !== nextLow) {
        Hot.add6(openHigh, openLow);
        Hot.add6(nextHigh, nextLow);
        openHigh = high;
        openLow = low;
      }
    } else {
      has6 = true;
      openHigh = high;
      openLow = low;
    }
    endHigh = finalHigh;
    endLow = finalLow;
    return 0;
  }

  /** Skips a varint at pos (up to 10 bytes); answers where it ends, or 0 when it runs past end. */
  @inline static varintEnd(pos: usize, end: usize): usize {
    for (let k = 0; k < 10; k++) {
      if (pos + <usize>k >= end) return 0;
      if ((load<u8>(pos + <usize>k) & 0x80) === 0) return pos + <usize>k + 1;
    }
    return 0;
  }

  /**
   * The id of the set of active lists: `count` of them, key (high, low). A sweep keeps these in
   * locals (the lists' flags stay in memory) and hands them over here.
   */
  @inline static activeSet(count: i32, high: i32, low: i32): i32 {
    if (count === 0) return 0;
    if (exactKeys) {
      if (high === lastHigh && low === lastLow) return lastId;
      if (high === otherHigh && low === otherLow) return otherId;
    }
    return Hot.internActive(count, high, low);
  }

  /** activeSet when the set is not one of the last two: the look-up, and the two remembered. */
  @inline static internActive(count: i32, highKey: i32, lowKey: i32): i32 {
    const id = intern(count, highKey, lowKey);
    otherHigh = lastHigh;
    otherLow = lastLow;
    otherId = lastId;
    lastHigh = highKey;
    lastLow = lowKey;
    lastId = id;
    return id;
  }

  /**
   * Ends the open interval (count - 1) with the active set (see activeSet); joins it to an equal
   * one before it. Answers the new count.
   */
  @inline static closeInterval(sets: usize, count: i32, active: i32, high: i32, low: i32): i32 {
    const id = Hot.activeSet(active, high, low);
    store<i32>(sets + ((<usize>(count - 1)) << 2), id);
    if (count > 1 && load<i32>(sets + ((<usize>(count - 2)) << 2)) === id) return count - 1;
    return count;
  }

  /** Flips a list's flag: answers 1 when the list comes in, -1 when it goes out. */
  @inline static flip(flag: usize): i32 {
    const was = load<u8>(flag);
    store<u8>(flag, was ^ 1);
    return was === 0 ? 1 : -1;
  }

  @inline static heapAt(k: i32): i32 {
    return load<i32>(runHeap + ((<usize>k) << 2));
  }

  @inline static keyOf(run: i32): u64 {
    return load<u64>(keys + ((<usize>run) << 3));
  }

  /** IPv6 event p's point comes before event q's. */
  @inline static before6(p: i32, q: i32): bool {
    const a = words6 + ((<usize>p) << 4);
    const b = words6 + ((<usize>q) << 4);
    const x = Hot.loadHalf(a);
    const y = Hot.loadHalf(b);
    if (x !== y) return x < y;
    return Hot.loadHalf(a + 8) < Hot.loadHalf(b + 8);
  }

  @inline static sweep4(): void {
    prepareRuns(runs4, runList4, runCount4, count4);
    for (let r = 0; r < runCount4; r++) {
      const h = load<i32>(heads + ((<usize>r) << 2));
      const e = load<i32>(ends + ((<usize>r) << 2));
      store<u64>(keys + ((<usize>r) << 3), h === e ? 0 : <u64>load<u32>(words4 + ((<usize>h) << 2)));
    }
    for (let from = (heapSize >> 1) - 1; from >= 0; from--) siftDownByKey(from);
    const starts = allocI32(count4 + 1);
    const sets = allocI32(count4 + 1);
    store<u32>(starts, 0);
    let count = 1;
    let open: u32 = 0;
    // The active lists: how many, and their set's key (their flags are in memory).
    let on = 0;
    let keyH = 0;
    let keyL = 0;
    while (heapSize > 0) {
      const r = Hot.heapAt(0);
      let limit: u64 = u64.MAX_VALUE;
      if (heapSize > 1) limit = Hot.keyOf(Hot.heapAt(1));
      if (heapSize > 2 && Hot.keyOf(Hot.heapAt(2)) < limit) limit = Hot.keyOf(Hot.heapAt(2));
      let e = load<i32>(heads + ((<usize>r) << 2));
      const end = load<i32>(ends + ((<usize>r) << 2));
      const list = load<i32>(lists + ((<usize>r) << 2));
      const flag = active + <usize>list;
      const listHigh = load<i32>(keyHigh + ((<usize>list) << 2));
      const listLow = load<i32>(keyLow + ((<usize>list) << 2));
      do {
        const point = load<u32>(words4 + ((<usize>e) << 2));
        if (point !== open) {
          count = Hot.closeInterval(sets, count, on, keyH, keyL);
          store<u32>(starts + ((<usize>count) << 2), point);
          count++;
          open = point;
        }
        // The list flips: in (the set's key gains its bits) or out (loses them).
        on += Hot.flip(flag);
        keyH ^= listHigh;
        keyL ^= listLow;
        e++;
      } while (e < end && <u64>load<u32>(words4 + ((<usize>e) << 2)) <= limit);
      if (e === end) {
        heapSize--;
        store<i32>(runHeap, Hot.heapAt(heapSize));
      } else {
        store<i32>(heads + ((<usize>r) << 2), e);
        store<u64>(keys + ((<usize>r) << 3), <u64>load<u32>(words4 + ((<usize>e) << 2)));
      }
      if (heapSize > 1) siftDownByKey(0);
    }
    count = Hot.closeInterval(sets, count, on, keyH, keyL);
    Hot.table(HEADER_V4, starts, sets, count, 4);
  }

  @inline static sweep6(): void {
    prepareRuns(runs6, runList6, runCount6, count6);
    for (let from = (heapSize >> 1) - 1; from >= 0; from--) siftDownWide(from);
    const starts = allocI32(4 * (count6 + 1));
    const sets = allocI32(count6 + 1);
    memory.fill(starts, 0, 16);
    let count = 1;
    // The active lists: how many, and their set's key (their flags are in memory).
    let on = 0;
    let keyH = 0;
    let keyL = 0;
    while (heapSize > 0) {
      const r = Hot.heapAt(0);
      // The other runs' smallest next event, or -1 when r is the last run.
      let limit = -1;
      if (heapSize > 1) limit = load<i32>(heads + ((<usize>Hot.heapAt(1)) << 2));
      if (heapSize > 2) {
        const other = load<i32>(heads + ((<usize>Hot.heapAt(2)) << 2));
        if (Hot.before6(other, limit)) limit = other;
      }
      let e = load<i32>(heads + ((<usize>r) << 2));
      const end = load<i32>(ends + ((<usize>r) << 2));
      const list = load<i32>(lists + ((<usize>r) << 2));
      const flag = active + <usize>list;
      const listHigh = load<i32>(keyHigh + ((<usize>list) << 2));
      const listLow = load<i32>(keyLow + ((<usize>list) << 2));
      for (;;) {
        const p = words6 + ((<usize>e) << 4);
        const q = starts + ((<usize>(count - 1)) << 4);
        // (The words as stored: equal halves are equal points whatever their byte order.)
        if (load<u64>(p) !== load<u64>(q) || load<u64>(p, 8) !== load<u64>(q, 8)) {
          count = Hot.closeInterval(sets, count, on, keyH, keyL);
          memory.copy(starts + ((<usize>count) << 4), p, 16);
          count++;
        }
        // The list flips: in (the set's key gains its bits) or out (loses them).
        on += Hot.flip(flag);
        keyH ^= listHigh;
        keyL ^= listLow;
        e++;
        if (e === end) break;
        // Go on while the next point is at or below the limit.
        if (limit !== -1 && Hot.before6(limit, e)) break;
      }
      if (e === end) {
        heapSize--;
        store<i32>(runHeap, Hot.heapAt(heapSize));
      } else store<i32>(heads + ((<usize>r) << 2), e);
      if (heapSize > 1) siftDownWide(0);
    }
    count = Hot.closeInterval(sets, count, on, keyH, keyL);
    Hot.table(HEADER_V6, starts, sets, count, 16);
  }

  /**
   * Writes a family's table into the header from slot `at` on: its starts, sets, count, lookup
   * index and the index's length (the starts are `stride` bytes apart).
   */
  @inline static table(at: i32, starts: usize, sets: usize, count: i32, stride: i32): void {
    const slots = (1 << Hot.indexBits(count)) + 1;
    const index = Hot.prefixIndex(starts, count, stride, slots - 1);
    store<i32>(header + ((<usize>at) << 2), <i32>starts);
    store<i32>(header + ((<usize>(at + 1)) << 2), <i32>sets);
    store<i32>(header + ((<usize>(at + 2)) << 2), count);
    store<i32>(header + ((<usize>(at + 3)) << 2), <i32>index);
    store<i32>(header + ((<usize>(at + 4)) << 2), slots);
  }

  /**
   * index[h]: the first interval whose start's top log2(slots) bits are h or more (count when
   * none); the starts are `stride` bytes apart, the top word first. Its length: slots + 1.
   */
  @inline static prefixIndex(starts: usize, count: i32, stride: i32, slots: i32): usize {
    const shift = 32 - (31 - clz<i32>(slots));
    const index = allocI32(slots + 1);
    let from = 0;
    for (let k = 0; k < count; k++) {
      const h = <i32>(load<u32>(starts + <usize>(k * stride)) >>> shift);
      if (h >= from) {
        for (let x = from; x <= h; x++) store<i32>(index + ((<usize>x) << 2), k);
        from = h + 1;
      }
    }
    for (let x = from; x <= slots; x++) store<i32>(index + ((<usize>x) << 2), count);
    return index;
  }

  /** The bits of an address that index `count` intervals: log2 of count rounded up, 8 to 16. */
  @inline static indexBits(count: i32): i32 {
    let bits = 8;
    while (bits < 16 && 1 << bits < count) bits++;
    return bits;
  }
}
