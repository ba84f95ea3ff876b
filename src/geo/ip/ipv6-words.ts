// 128-bit arithmetic on IPv6 addresses held as four uint32 words (most significant first), for
// the hot paths of IP compilation: no bigint, no allocation. A word array is a Uint32Array(4).

/** A 128-bit value as four big-endian uint32 words. */
export type Words = Uint32Array;

/** Compares two values as unsigned 128-bit numbers. */
export function compareWords(a: Words, ai: number, b: Words, bi: number): number {
  for (let k = 0; k < 4; k++) {
    const x = a[ai + k] as number;
    const y = b[bi + k] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Clears the host bits of v[i..i+3] beyond `prefix` network bits. */
export function maskWords(v: Words, i: number, prefix: number): void {
  for (let k = 0; k < 4; k++) {
    const keep = prefix - k * 32;
    if (keep >= 32) continue;
    v[i + k] = keep <= 0 ? 0 : ((v[i + k] as number) & (~0 << (32 - keep))) >>> 0;
  }
}

/** Sets the host bits of v[i..i+3] beyond `prefix` (turns a network start into its last address). */
export function fillHostWords(v: Words, i: number, prefix: number): void {
  for (let k = 0; k < 4; k++) {
    const keep = prefix - k * 32;
    if (keep >= 32) continue;
    v[i + k] = keep <= 0 ? 0xffffffff : ((v[i + k] as number) | (0xffffffff >>> keep)) >>> 0;
  }
}

/** Adds 2^bits to v in place; returns false when the sum overflows 128 bits. */
export function addPowerOfTwo(v: Words, bits: number): boolean {
  let k = 3 - Math.floor(bits / 32);
  let add = 2 ** (bits % 32);
  while (k >= 0) {
    const sum = (v[k] as number) + add;
    v[k] = sum >>> 0;
    if (sum < 2 ** 32) return true;
    add = 1;
    k--;
  }
  return false;
}

/** Number of trailing zero bits (128 for zero). */
export function trailingZeros(v: Words): number {
  for (let k = 3; k >= 0; k--) {
    const w = v[k] as number;
    if (w !== 0) return (3 - k) * 32 + (31 - Math.clz32(w & -w));
  }
  return 128;
}

/** floor(log2(end - start + 1)) for start <= end: the largest block size (as bits) that fits. */
export function floorLog2Span(start: Words, end: Words, scratch: Words): number {
  // scratch = end - start
  let borrow = 0;
  for (let k = 3; k >= 0; k--) {
    let d = (end[k] as number) - (start[k] as number) - borrow;
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += 2 ** 32;
    scratch[k] = d;
  }
  // + 1, then the index of the highest set bit.
  for (let k = 3; k >= 0; k--) {
    const sum = (scratch[k] as number) + 1;
    scratch[k] = sum >>> 0;
    if (sum < 2 ** 32) break;
    if (k === 0) return 128; // the span is the whole 2^128 space
  }
  for (let k = 0; k < 4; k++) {
    const w = scratch[k] as number;
    if (w !== 0) return (3 - k) * 32 + (31 - Math.clz32(w));
  }
  return 0;
}

/** Copies the 16 bytes of v as an IPv6 address. */
export function wordsToBytes(v: Words): Uint8Array {
  const out = new Uint8Array(16);
  for (let k = 0; k < 4; k++) {
    const w = v[k] as number;
    out[k * 4] = w >>> 24;
    out[k * 4 + 1] = (w >>> 16) & 255;
    out[k * 4 + 2] = (w >>> 8) & 255;
    out[k * 4 + 3] = w & 255;
  }
  return out;
}

const groups = new Uint16Array(8);

/**
 * Parses IPv6 text into v[i..i+3]; returns false when it is not a valid address. Accepts `::`
 * and a dotted IPv4 tail; no zones. Scans characters once, without allocating.
 */
export function parseIPv6Words(text: string, from: number, to: number, v: Words, i: number): boolean {
  let count = 0;
  let gap = -1;
  let p = from;
  if (to - from < 2) return false;
  if (text.charCodeAt(p) === 58) {
    if (text.charCodeAt(p + 1) !== 58) return false;
    gap = 0;
    p += 2;
    if (p === to) {
      groups.fill(0);
      count = 0;
    }
  }
  while (p < to) {
    // A dotted IPv4 tail takes the last two groups.
    let q = p;
    let value = 0;
    let digits = 0;
    let dotted = false;
    while (q < to) {
      const c = text.charCodeAt(q);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (c >= 97 && c <= 102) d = c - 87;
      else if (c >= 65 && c <= 70) d = c - 55;
      else if (c === 46) {
        dotted = true;
        break;
      } else break;
      value = value * 16 + d;
      digits++;
      q++;
    }
    if (dotted) {
      if (count > 6) return false;
      const v4 = parseDotted(text, p, to);
      if (v4 < 0) return false;
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      p = to;
      break;
    }
    if (digits === 0 || digits > 4 || count === 8) return false;
    groups[count++] = value;
    p = q;
    if (p === to) break;
    if (text.charCodeAt(p) !== 58) return false;
    p++;
    if (text.charCodeAt(p) === 58) {
      if (gap !== -1) return false;
      gap = count;
      p++;
      if (p === to) break;
    } else if (p === to) return false;
  }
  if (gap === -1) {
    if (count !== 8) return false;
  } else {
    if (count > 7) return false;
    const tail = count - gap;
    for (let k = 0; k < tail; k++) groups[7 - k] = groups[count - 1 - k] as number;
    for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  }
  for (let k = 0; k < 4; k++)
    v[i + k] = (((groups[k * 2] as number) << 16) | (groups[k * 2 + 1] as number)) >>> 0;
  return true;
}

/** Parses dotted IPv4 text in text[from, to) to a uint32, or returns -1 (no leading zeros). */
export function parseDotted(text: string, from: number, to: number): number {
  let value = 0;
  let octets = 0;
  let p = from;
  while (p <= to) {
    const start = p;
    let octet = 0;
    while (p < to) {
      const c = text.charCodeAt(p);
      if (c < 48 || c > 57) break;
      octet = octet * 10 + (c - 48);
      p++;
    }
    const digits = p - start;
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && text.charCodeAt(start) === 48)) return -1;
    value = value * 256 + octet;
    octets++;
    if (p === to) break;
    if (text.charCodeAt(p) !== 46 || octets === 4) return -1;
    p++;
  }
  return octets === 4 ? value : -1;
}
