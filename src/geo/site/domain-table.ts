// An open-addressing hash table of domain names that is probed with a slice of a query string
// (text[from, to)) without cutting it out: the hash is built right to left, one character at a
// time, so a walk from the end of a name hashes every suffix on the way.
//   add(name) ... -> seal() -> find(hash, text, from, to)

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

/** Names to indexes (in insertion order); lookups compare characters in place. */
export class DomainTable {
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private hashes = new Int32Array(0);
  private slots = new Int32Array(0);
  private mask = 0;

  /** Number of names. */
  get size(): number {
    return this.names.length;
  }

  /** Adds a name if new; returns its index. Call seal() after the last add. */
  add(name: string): number {
    let id = this.index.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.index.set(name, id);
    }
    return id;
  }

  /** Builds the probe table. */
  seal(): void {
    let capacity = 8;
    while (capacity < this.names.length * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity).fill(-1);
    this.hashes = new Int32Array(this.names.length);
    this.names.forEach((name, id) => {
      const h = hashName(name);
      this.hashes[id] = h;
      let slot = h & this.mask;
      while ((this.slots[slot] as number) !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = id;
    });
  }

  /** The index of the name equal to text[from, to) whose hash is `hash`, or -1. */
  find(hash: number, text: string, from: number, to: number): number {
    const length = to - from;
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      if (this.hashes[id] === hash) {
        const name = this.names[id] as string;
        if (name.length === length) {
          let k = 0;
          while (k < length && name.charCodeAt(k) === text.charCodeAt(from + k)) k++;
          if (k === length) return id;
        }
      }
      slot = (slot + 1) & this.mask;
    }
  }
}
