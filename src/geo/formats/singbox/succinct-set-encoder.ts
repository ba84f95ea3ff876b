// Builds the succinct set (a LOUDS trie) that sing-box's domain matcher stores in .srs files, as three
// arrays: `leaves` (bit n set: node n ends a key), `labelBitmap` (per node in breadth-first order,
// a 0 bit per child label then a 1 bit) and `labels` (the child labels, one byte each, in order).
// Both bitmaps are kept here exactly as they sit in the file: uint64 words, each big-endian.
import { bitByte } from './word-bitmap.js';

/** The three arrays of a succinct set; bitmaps as big-endian uint64 words (8 bytes a word). */
export interface SuccinctSet {
  readonly leaves: Uint8Array;
  readonly labelBitmap: Uint8Array;
  readonly labels: Uint8Array;
}

/**
 * Builds the set of `keys`, which must be sorted bytewise and distinct, breadth first as
 * sing-box's newSuccinctSet does, so that the arrays are the ones sing-box writes for them.
 */
export function encodeSuccinctSet(keys: readonly Uint8Array[]): SuccinctSet {
  const leafBits: number[] = [];
  const labels: number[] = [];
  const ones: number[] = [];
  let bit = 0;
  // The queue holds [start, end, column] triples: the keys of one node and its depth.
  const queue: number[] = [0, keys.length, 0];
  for (let node = 0; node * 3 < queue.length; node++) {
    let s = queue[node * 3] as number;
    const e = queue[node * 3 + 1] as number;
    const col = queue[node * 3 + 2] as number;
    if (s < e && (keys[s] as Uint8Array).length === col) {
      leafBits.push(node);
      s++;
    }
    for (let j = s; j < e; ) {
      const from = j;
      const label = (keys[from] as Uint8Array)[col] as number;
      while (j < e && (keys[j] as Uint8Array)[col] === label) j++;
      queue.push(from, j, col + 1);
      labels.push(label);
      bit++;
    }
    ones.push(bit++);
  }
  const words = (n: number) => new Uint8Array(Math.ceil(n / 64) * 8);
  const lastLeaf = leafBits.length === 0 ? -1 : (leafBits[leafBits.length - 1] as number);
  const leaves = words(lastLeaf + 1);
  for (const n of leafBits) setBit(leaves, n);
  const labelBitmap = words(bit);
  for (const n of ones) setBit(labelBitmap, n);
  return { leaves, labelBitmap, labels: Uint8Array.from(labels) };
}

function setBit(bitmap: Uint8Array, i: number): void {
  const byte = bitByte(i);
  bitmap[byte] = (bitmap[byte] as number) | (1 << (i & 7));
}
