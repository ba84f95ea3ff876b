// Recovers the keys of a succinct set read from an .srs file, checking the trie's shape as it
// goes: every node has a parent before it, sibling labels ascend, every childless node ends a key,
// no stray bits. Key length and the bytes of all keys together are capped, so a hostile file can
// neither loop nor make the reader allocate much more than the file's decompressed size.
import type { SuccinctSet } from './succinct-set-encoder.js';
import { bitByte } from './word-bitmap.js';

/** Longest key accepted (a domain name has at most 253 bytes; the key adds a marker byte). */
export const MAX_KEY_BYTES = 1024;

/** Most key bytes one domain matcher may decode to. */
export const MAX_TOTAL_KEY_BYTES = 64 * 1024 * 1024;

/** A succinct set as read, with the body offsets of its arrays and a way to report errors. */
export interface LocatedSuccinctSet extends SuccinctSet {
  readonly leavesAt: number;
  readonly bitmapAt: number;
  readonly labelsAt: number;
  readonly fail: (what: string, at: number) => never;
}

/** The keys of the set (bytes, root to leaf), in breadth-first order of their last node. */
export function decodeSuccinctSet(set: LocatedSuccinctSet): Uint8Array[] {
  const { labels, labelBitmap, leaves, fail } = set;
  const nodeCount = labels.length + 1;
  const parent = new Int32Array(nodeCount);
  const depth = new Uint16Array(nodeCount);
  const hasChild = new Uint8Array(nodeCount);
  const totalBits = labelBitmap.length * 8;
  let node = 0;
  let label = 0;
  let previous = -1;
  let bit = 0;
  for (; node < nodeCount; bit++) {
    if (bit >= totalBits) fail(`label bitmap ends before node ${node} of ${nodeCount}`, set.bitmapAt);
    // Nodes are numbered by the label that leads to them: those so far are 0 .. label.
    if (node > label) fail(`label bitmap gives node ${node} no parent`, set.bitmapAt);
    if (isSet(labelBitmap, bit)) {
      node++;
      previous = -1;
      continue;
    }
    if (label >= labels.length) fail(`label bitmap holds more than ${labels.length} labels`, set.bitmapAt);
    const value = labels[label] as number;
    if (value <= previous) fail(`labels of node ${node} are not in ascending order`, set.labelsAt + label);
    previous = value;
    const child = label + 1;
    parent[child] = node;
    const d = (depth[node] as number) + 1;
    if (d > MAX_KEY_BYTES) fail(`a key is longer than ${MAX_KEY_BYTES} bytes`, set.labelsAt + label);
    depth[child] = d;
    hasChild[node] = 1;
    label++;
  }
  if (labelBitmap.length !== Math.ceil(bit / 64) * 8) {
    fail(
      `label bitmap has ${labelBitmap.length / 8} words where its ${bit} bits need ${Math.ceil(bit / 64)}`,
      set.bitmapAt,
    );
  }
  for (let b = bit; b < totalBits; b++) {
    if (isSet(labelBitmap, b)) fail(`label bitmap has a stray bit ${b}`, set.bitmapAt);
  }
  if (leaves.length > Math.ceil(nodeCount / 64) * 8) {
    fail(`leaf bitmap has ${leaves.length / 8} words for ${nodeCount} nodes`, set.leavesAt);
  }
  for (let b = nodeCount; b < leaves.length * 8; b++) {
    if (isSet(leaves, b)) fail(`leaf bitmap marks node ${b} of ${nodeCount}`, set.leavesAt);
  }
  const keys: Uint8Array[] = [];
  let total = 0;
  for (let n = 0; n < nodeCount; n++) {
    if (!isSet(leaves, n)) {
      if (hasChild[n] === 0) fail(`node ${n} neither ends a key nor has children`, set.leavesAt);
      continue;
    }
    const length = depth[n] as number;
    total += length;
    if (total > MAX_TOTAL_KEY_BYTES)
      fail(`keys add up to more than ${MAX_TOTAL_KEY_BYTES} bytes`, set.labelsAt);
    const key = new Uint8Array(length);
    for (let i = length - 1, m = n; i >= 0; i--) {
      key[i] = labels[m - 1] as number;
      m = parent[m] as number;
    }
    keys.push(key);
  }
  return keys;
}

function isSet(bitmap: Uint8Array, i: number): boolean {
  return ((bitmap[bitByte(i)] ?? 0) & (1 << (i & 7))) !== 0;
}
