// mihomo's succinct domain set (component/trie/domain_set.go), the body of a domain .mrs: keys
// reversed, sorted, laid out as a LOUDS trie in breadth-first order: a leaf bitmap per node, a
// label bitmap (a 0 per child label, a 1 closing each node) and the label bytes. Both directions.
import type { ByteCursor } from './byte-cursor.js';

/** Version byte of the domain set section. */
const VERSION = 1;
/** Longest key accepted (bytes): a DNS name is at most 253, plus the `+.` marker. */
export const MAX_KEY_BYTES = 512;

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** A key reversed by code point (as mihomo's utils.Reverse) and encoded as UTF-8. */
function reversedBytes(key: string): Uint8Array {
  return utf8.encode(Array.from(key).reverse().join(''));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const d = (a[k] as number) - (b[k] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Bits in LSB-first bytes, the way mihomo's []uint64 bitmaps number them. */
function setBit(bits: Uint8Array, i: number): void {
  bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
}

function getBit(bits: Uint8Array, i: number): boolean {
  return (((bits[i >> 3] as number) >> (i & 7)) & 1) === 1;
}

/**
 * The domain set section (version byte, leaves, label bitmap, labels) for non-empty, distinct
 * keys, byte for byte as mihomo's DomainSet.WriteBin writes it.
 */
export function encodeDomainSet(keys: Iterable<string>): Uint8Array {
  const sorted = Array.from(new Set(keys), reversedBytes).sort(compareBytes);
  let total = 0;
  for (const k of sorted) total += k.length;
  const maxNodes = total + 1;
  const qs = new Int32Array(maxNodes);
  const qe = new Int32Array(maxNodes);
  const qc = new Int32Array(maxNodes);
  const labels = new Uint8Array(total);
  const leaves = new Uint8Array((maxNodes >> 3) + 1);
  const bitmap = new Uint8Array(((2 * maxNodes) >> 3) + 1);
  qe[0] = sorted.length;
  let queued = 1;
  let labelCount = 0;
  let bitIndex = 0;
  let lastLeaf = 0;
  for (let i = 0; i < queued; i++) {
    let s = qs[i] as number;
    const e = qe[i] as number;
    const col = qc[i] as number;
    if ((sorted[s] as Uint8Array).length === col) {
      s++;
      setBit(leaves, i);
      lastLeaf = i;
    }
    for (let j = s; j < e; ) {
      const from = j;
      const c = (sorted[from] as Uint8Array)[col] as number;
      while (j < e && (sorted[j] as Uint8Array)[col] === c) j++;
      qs[queued] = from;
      qe[queued] = j;
      qc[queued++] = col + 1;
      labels[labelCount++] = c;
      bitIndex++;
    }
    setBit(bitmap, bitIndex++);
  }
  const leafWords = (lastLeaf >> 6) + 1;
  const bitmapWords = ((bitIndex - 1) >> 6) + 1;
  const out = new Uint8Array(1 + 8 + leafWords * 8 + 8 + bitmapWords * 8 + 8 + labelCount);
  const view = new DataView(out.buffer);
  out[0] = VERSION;
  let p = 1;
  const words = (bits: Uint8Array, n: number) => {
    view.setBigInt64(p, BigInt(n), false);
    p += 8;
    // A uint64 written big-endian: its most significant byte (bits 56-63) first.
    for (let w = 0; w < n; w++, p += 8) for (let k = 0; k < 8; k++) out[p + 7 - k] = bits[w * 8 + k] ?? 0;
  };
  words(leaves, leafWords);
  words(bitmap, bitmapWords);
  view.setBigInt64(p, BigInt(labelCount), false);
  out.set(labels.subarray(0, labelCount), p + 8);
  return out;
}

/** Reads n big-endian uint64 words into LSB-first bit bytes. */
function readWords(cur: ByteCursor, n: number, what: string): Uint8Array {
  const raw = cur.take(n * 8, what);
  const bits = new Uint8Array(n * 8);
  for (let w = 0; w < n; w++) for (let k = 0; k < 8; k++) bits[w * 8 + k] = raw[w * 8 + 7 - k] as number;
  return bits;
}

/**
 * Reads a domain set section at the cursor and returns its keys (in the forward direction, in
 * stored order: sorted as reversed bytes). Checks the lengths are exactly those mihomo writes for
 * the label count, that the bitmaps describe a tree in breadth-first order with sorted labels,
 * and bounds the key bytes (each key, and all keys together).
 */
export function decodeDomainSet(cur: ByteCursor): string[] {
  const versionAt = cur.pos;
  const version = cur.u8('domain set version');
  if (version !== VERSION) cur.fail(`domain set version ${version}, expected ${VERSION}`, versionAt);
  const leavesAt = cur.pos;
  const leafWords = cur.length('leaves length', 8, 1);
  const leaves = readWords(cur, leafWords, 'leaves');
  const bitmapAt = cur.pos;
  const bitmapWords = cur.length('label bitmap length', 8, 1);
  const bitmap = readWords(cur, bitmapWords, 'label bitmap');
  const labelsAt = cur.pos;
  const labelCount = cur.length('labels length', 1, 1);
  const labels = cur.take(labelCount, 'labels');
  const nodes = labelCount + 1;
  // mihomo's bitmaps grow to the last bit set: the last node (always a leaf) and the bit closing
  // it, so both lengths follow from the label count.
  if (leafWords !== (labelCount >> 6) + 1) {
    cur.fail(`leaves length ${leafWords} does not fit ${labelCount} labels`, leavesAt);
  }
  if (bitmapWords !== ((2 * labelCount) >> 6) + 1) {
    cur.fail(`label bitmap length ${bitmapWords} does not fit ${labelCount} labels`, bitmapAt);
  }
  for (let i = nodes; i < leafWords * 64; i++) {
    if (getBit(leaves, i)) cur.fail(`leaf bit ${i} set beyond the ${nodes} nodes`, leavesAt + 8);
  }
  // Node i owns labels [first[i], first[i + 1]); label k leads to node k + 1.
  const first = new Int32Array(nodes + 1);
  let node = 0;
  let label = 0;
  for (let bit = 0; bit <= 2 * labelCount; bit++) {
    if (getBit(bitmap, bit)) {
      node++;
      first[node] = label;
    } else {
      if (label === labelCount) cur.fail(`label bitmap has more than ${labelCount} labels`, bitmapAt + 8);
      label++;
    }
  }
  if (node !== nodes || label !== labelCount) {
    cur.fail(`label bitmap closes ${node} nodes over ${label} labels, expected ${nodes} nodes`, bitmapAt + 8);
  }
  for (let bit = 2 * labelCount + 1; bit < bitmapWords * 64; bit++) {
    if (getBit(bitmap, bit)) cur.fail(`label bitmap bit ${bit} set past the last node`, bitmapAt + 8);
  }
  const parent = new Int32Array(nodes);
  const depth = new Int32Array(nodes);
  parent[0] = -1;
  for (let i = 0; i < nodes; i++) {
    const from = first[i] as number;
    const to = first[i + 1] as number;
    if (from === to && !getBit(leaves, i)) cur.fail(`node ${i} has no labels and is no leaf`, bitmapAt + 8);
    for (let k = from; k < to; k++) {
      if (k > from && (labels[k] as number) <= (labels[k - 1] as number)) {
        cur.fail(`labels of node ${i} are not in ascending order`, labelsAt + 8 + k);
      }
      const child = k + 1;
      // Breadth-first order: a child always comes after its parent.
      if (child <= i) cur.fail(`label ${k} of node ${i} points back to node ${child}`, labelsAt + 8 + k);
      parent[child] = i;
      depth[child] = (depth[i] as number) + 1;
      if ((depth[child] as number) > MAX_KEY_BYTES) {
        cur.fail(`key longer than ${MAX_KEY_BYTES} bytes`, labelsAt + 8 + k);
      }
    }
  }
  if (getBit(leaves, 0)) cur.fail('the empty key is in the set', leavesAt + 8);
  // The keys share the trie's bytes; written out they may take far more (a chain of leaves takes
  // the square of its length), so their total is bounded by the labels they come from.
  let keyBytes = 0;
  for (let i = 1; i < nodes; i++) if (getBit(leaves, i)) keyBytes += depth[i] as number;
  const budget = 8 * labelCount + 65536;
  if (keyBytes > budget) {
    cur.fail(`${labelCount} labels spell ${keyBytes} bytes of keys (more than ${budget})`, labelsAt);
  }
  // Leaves in depth-first order, labels ascending: the stored keys in sorted order.
  const ends: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop() as number;
    if (i > 0 && getBit(leaves, i)) ends.push(i);
    for (let k = (first[i + 1] as number) - 1; k >= (first[i] as number); k--) stack.push(k + 1);
  }
  const keys: string[] = [];
  for (const end of ends) {
    // Walking up from the leaf yields the stored (reversed) key back to front: the forward key.
    const bytes = new Uint8Array(depth[end] as number);
    let p = 0;
    for (let n = end; n > 0; n = parent[n] as number) bytes[p++] = labels[n - 1] as number;
    let forward: string;
    try {
      // Stored keys are reversed by code point; reversing the bytes reversed each character's
      // UTF-8 sequence too, so decode the stored order and reverse the code points instead.
      forward = Array.from(utf8Strict.decode(bytes.reverse())).reverse().join('');
    } catch {
      return cur.fail(`key ending at node ${end} is not valid UTF-8`, labelsAt + 8 + end - 1);
    }
    keys.push(forward);
  }
  return keys;
}
