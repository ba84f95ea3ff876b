// An open-addressing hash table of domain names that is probed with a slice of a query string
// (text[from, to)) without cutting it out: the hash is built right to left, one character at a
// time, so a walk from the end of a name hashes every suffix on the way.
// Names live in one character pool (a Uint16Array of UTF-16 code units) with an offset and a
// length each, so 100,000 names cost a few typed arrays, not 100,000 strings and a Map:
//   add(name) | addBytes(bytes, from, to) ... -> find(hash, text, from, to)

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

/** Names to indexes (in insertion order); lookups compare characters in place. */
export class DomainTable {
  private pool: Uint16Array;
  private poolUsed = 0;
  private starts: Int32Array;
  private lengths: Int32Array;
  private hashes: Int32Array;
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
    this.starts = new Int32Array(Math.max(16, names));
    this.lengths = new Int32Array(Math.max(16, names));
    this.hashes = new Int32Array(Math.max(16, names));
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
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      if (this.hashes[id] === hash && this.lengths[id] === length) {
        const start = this.starts[id] as number;
        let k = 0;
        while (k < length && pool[start + k] === text.charCodeAt(from + k)) k++;
        if (k === length) return id;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Bytes held, for sizing reports. */
  get bytes(): number {
    return this.pool.byteLength + this.starts.byteLength * 3 + this.slots.byteLength;
  }

  /** A name already copied to pool[at, at + length) that is in the table, or -1. */
  private findPooled(hash: number, at: number, length: number): number {
    const pool = this.pool;
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      if (this.hashes[id] === hash && this.lengths[id] === length) {
        const start = this.starts[id] as number;
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
    if (this.count === this.starts.length) {
      const n = this.count * 2;
      const grow = (a: Int32Array) => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts);
      this.lengths = grow(this.lengths);
      this.hashes = grow(this.hashes);
    }
    const id = this.count++;
    this.starts[id] = at;
    this.lengths[id] = length;
    this.hashes[id] = hash;
    this.poolUsed = at + length;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    let slot = (this.hashes[id] as number) & this.mask;
    while ((this.slots[slot] as number) !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}
