// GSM 7-bit text <-> septets <-> packed octets (3GPP TS 23.038 6.1.2.1). Packing starts at a bit
// offset so that text after a user data header lands on a septet boundary (the fill bits).

import { ESC, EXTENDED, GSM7_BASIC, GSM7_ENCODE, GSM7_EXTENSION } from './gsm7-alphabet.js';

/** Septets `text` takes in GSM-7 (extension characters count two), or -1 when a character does not fit. */
export function gsm7Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = GSM7_ENCODE[text.charCodeAt(i)] ?? -1;
    if (code < 0) return -1;
    n += code & EXTENDED ? 2 : 1;
  }
  return n;
}

/** Septets of one character (1 or 2), or -1 when it is not in GSM-7. */
export function gsm7CharLength(unit: number): number {
  const code = GSM7_ENCODE[unit] ?? -1;
  if (code < 0) return -1;
  return code & EXTENDED ? 2 : 1;
}

/** Septets of a text known to fit GSM-7 (see gsm7Length), escapes included. */
export function textToSeptets(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = GSM7_ENCODE[text.charCodeAt(i)] ?? -1;
    if (code & EXTENDED) out.push(ESC, code & 0x7f);
    else out.push(code);
  }
  return out;
}

/**
 * Septets -> text. An escape followed by a septet the extension table lacks shows the basic-table
 * character (23.038 6.2.1.1); a trailing escape, or two in a row, shows a space.
 */
export function septetsToText(septets: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < septets.length; i++) {
    const s = septets[i] ?? 0;
    if (s !== ESC) {
      out += GSM7_BASIC[s];
      continue;
    }
    const next = septets[i + 1];
    if (next === undefined || next === ESC) {
      out += ' ';
      i++;
      continue;
    }
    out += GSM7_EXTENSION.get(next) ?? GSM7_BASIC[next];
    i++;
  }
  return out;
}

/** Packs septets into octets starting `fillBits` bits into `out` at `offset`; returns the end offset. */
export function packSeptets(
  septets: readonly number[],
  out: Uint8Array,
  offset: number,
  fillBits: number,
): number {
  let bit = fillBits;
  for (const s of septets) {
    const index = offset + (bit >> 3);
    const shift = bit & 7;
    out[index] = (out[index] ?? 0) | ((s << shift) & 0xff);
    if (shift > 1) out[index + 1] = s >> (8 - shift);
    bit += 7;
  }
  return offset + ((bit + 7) >> 3);
}

/** Octets needed for `count` septets after `fillBits` fill bits. */
export function packedLength(count: number, fillBits: number): number {
  return (fillBits + 7 * count + 7) >> 3;
}

/** Unpacks `count` septets starting `fillBits` bits into `bytes` at `offset` (bounds checked by the caller). */
export function unpackSeptets(
  bytes: Uint8Array,
  offset: number,
  fillBits: number,
  count: number,
): Uint8Array {
  const out = new Uint8Array(count);
  let bit = fillBits;
  for (let i = 0; i < count; i++) {
    const index = offset + (bit >> 3);
    const shift = bit & 7;
    let v = (bytes[index] ?? 0) >> shift;
    if (shift > 1) v |= (bytes[index + 1] ?? 0) << (8 - shift);
    out[i] = v & 0x7f;
    bit += 7;
  }
  return out;
}
