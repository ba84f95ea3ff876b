// An open-addressing hash table of domain names that is probed with a slice of a query string
// (text[from, to)) without cutting it out: the hash is built right to left, one character at a
// time, so a walk from the end of a name hashes every suffix on the way.
// Names live in one character pool (a Uint16Array of UTF-16 code units) with a record each (hash,
// length, offset into the pool and a value the caller sets, side by side in one Int32Array so a
// probe that finds a name reads one cache line for all four), so 100,000 names cost a few typed
// arrays, not 100,000 strings and a Map:
//   add(name) | addBytes(bytes, from, to) ... -> find(hash, text, from, to) -> value(id)

/** Multiplier of the right-to-left string hash. */
const MUL = 0x01000193;

/** Extends the hash of text[k+1, to) to text[k, to) with the character at k. */
export function hashStep(hash: number, charCode: number): number {
  return (Math.imul(hash, MUL) ^ charCode) | 0;
}

/** The hash of a whole string, as hashStep builds it from the end. */
export function hashName(name: string): number {
  let h = 0;
  for (let k = name.length - 1; k >= 0; k--) h = hashStep(h, name.charCodeAt(k));
  return h;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Int32s per name record: hash, length, pool offset, value. */
const RECORD = 4;
const HASH = 0;
const LENGTH = 1;
const START = 2;
const VALUE = 3;

/** Names to indexes (in insertion order); lookups compare characters in place. */
export class DomainTable {
  private pool: Uint16Array;
  private poolUsed = 0;
  /** A record of RECORD int32s per name (HASH, LENGTH, START, VALUE). */
  private records: Int32Array;
  private count = 0;
  private slots: Int32Array;
  private mask: number;

  /**
   * `chars` and `names` size the pool and the per-name arrays up front (upper bounds are fine:
   * pages of a large zeroed buffer that are never written cost no memory, while growing by
   * doubling leaves a trail of garbage buffers behind); they grow when exceeded. `expected`, a
   * likely count rather than a bound, sizes the hash slots (which are all written).
   */
  constructor(chars = 4096, names = 256, expected = 256) {
    this.pool = new Uint16Array(Math.max(16, chars));
    this.records = new Int32Array(Math.max(16, names) * RECORD);
    // At most half full: the power of two at or above twice the expected names.
    let slots = 512;
    while (slots < expected * 2) slots *= 2;
    this.slots = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
  }

  /** Number of names. */
  get size(): number {
    return this.count;
  }

  /** Adds a name (as given; callers lower-case it) if new; returns its index. */
  add(name: string): number {
    const hash = hashName(name);
    const found = this.find(hash, name, 0, name.length);
    if (found !== -1) return found;
    const at = this.reservePool(name.length);
    for (let k = 0; k < name.length; k++) this.pool[at + k] = name.charCodeAt(k);
    return this.insert(hash, at, name.length);
  }

  /**
   * Adds the UTF-8 name in bytes[from, to), lower-cased, if new; returns its index. ASCII names
   * (nearly all) go from the bytes straight into the pool; others through a string.
   */
  addBytes(bytes: Uint8Array, from: number, to: number): number {
    let hash = 0;
    for (let k = to - 1; k >= from; k--) {
      let c = bytes[k] as number;
      if (c >= 0x80) return this.add(utf8.decode(bytes.subarray(from, to)).toLowerCase());
      if (c >= 65 && c <= 90) c += 32;
      hash = hashStep(hash, c);
    }
    const length = to - from;
    // Probe before copying: most names of a big file are new, but duplicates cost nothing.
    const at = this.reservePool(length);
    for (let k = 0; k < length; k++) {
      const c = bytes[from + k] as number;
      this.pool[at + k] = c >= 65 && c <= 90 ? c + 32 : c;
    }
    const found = this.findPooled(hash, at, length);
    if (found !== -1) return found;
    return this.insert(hash, at, length);
  }

  /** The index of the name equal to text[from, to) whose hash is `hash`, or -1. */
  find(hash: number, text: string, from: number, to: number): number {
    const length = to - from;
    const pool = this.pool;
    const records = this.records;
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      const r = id * RECORD;
      if (records[r + HASH] === hash && records[r + LENGTH] === length) {
        const start = records[r + START] as number;
        let k = 0;
        while (k < length && pool[start + k] === text.charCodeAt(from + k)) k++;
        if (k === length) return id;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The value set for name `id` (0 until set). */
  value(id: number): number {
    return this.records[id * RECORD + VALUE] as number;
  }

  /** Sets the value of name `id` (the caller's data for the name, read back with value(id)). */
  setValue(id: number, value: number): void {
    this.records[id * RECORD + VALUE] = value;
  }

  /** Bytes held, for sizing reports. */
  get bytes(): number {
    return this.pool.byteLength + this.records.byteLength + this.slots.byteLength;
  }

  /** A name already copied to pool[at, at + length) that is in the table, or -1. */
  private findPooled(hash: number, at: number, length: number): number {
    const pool = this.pool;
    const records = this.records;
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      const r = id * RECORD;
      if (records[r + HASH] === hash && records[r + LENGTH] === length) {
        const start = records[r + START] as number;
        let k = 0;
        while (k < length && pool[start + k] === pool[at + k]) k++;
        if (k === length) return id;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  private reservePool(length: number): number {
    if (this.poolUsed + length > this.pool.length) {
      const grown = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      grown.set(this.pool.subarray(0, this.poolUsed));
      this.pool = grown;
    }
    return this.poolUsed;
  }

  private insert(hash: number, at: number, length: number): number {
    if (this.count * RECORD === this.records.length) {
      const grown = new Int32Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    const id = this.count++;
    const r = id * RECORD;
    this.records[r + HASH] = hash;
    this.records[r + LENGTH] = length;
    this.records[r + START] = at;
    this.poolUsed = at + length;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    let slot = (this.records[id * RECORD + HASH] as number) & this.mask;
    while ((this.slots[slot] as number) !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}
