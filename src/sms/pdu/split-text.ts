// Plans the parts of a text: GSM-7 when every character fits (extension characters take two
// septets), UCS-2 otherwise; a cut never separates an escape from its character or a surrogate pair.

import { gsm7CharLength, gsm7Length } from './gsm7.js';
import { PduError } from './pdu-error.js';
import type { SmsPart, SplitOptions } from './types.js';

const MAX_PARTS = 255;
const SINGLE_SEPTETS = 160;
const SINGLE_OCTETS = 140;

/** Checks a concatenation reference against its width and returns the width (default 8). */
export function checkReference(reference: number, referenceBits: 8 | 16 | undefined): 8 | 16 {
  const bits = referenceBits ?? 8;
  if (bits !== 8 && bits !== 16) {
    throw new PduError('bad_option', 'referenceBits', undefined, `must be 8 or 16, not ${String(bits)}`);
  }
  if (!Number.isInteger(reference) || reference < 0 || reference >= 1 << bits) {
    throw new PduError('bad_option', 'reference', undefined, `${reference} does not fit ${bits} bits`);
  }
  return bits;
}

/** Octets of user data a part has after a concatenation header of the given width. */
export function concatCapacityOctets(bits: 8 | 16): number {
  return SINGLE_OCTETS - (bits === 8 ? 6 : 7);
}

function cutGsm7(text: string, capacity: number): { start: number; end: number; units: number }[] {
  const cuts: { start: number; end: number; units: number }[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const cost = gsm7CharLength(text.charCodeAt(i));
    if (used + cost > capacity) {
      cuts.push({ start, end: i, units: used });
      start = i;
      used = 0;
    }
    used += cost;
  }
  cuts.push({ start, end: text.length, units: used });
  return cuts;
}

function cutUcs2(text: string, capacityUnits: number): { start: number; end: number; units: number }[] {
  const cuts: { start: number; end: number; units: number }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + capacityUnits, text.length);
    const last = text.charCodeAt(end - 1);
    const next = text.charCodeAt(end);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) end--;
    cuts.push({ start, end, units: 2 * (end - start) });
    start = end;
  }
  return cuts;
}

/** Splits `text` into the parts of one SMS (a single part needs no concatenation header). */
export function splitText(text: string, options: SplitOptions = {}): SmsPart[] {
  const reference = options.reference ?? 0;
  const bits = checkReference(reference, options.referenceBits);
  const septets = options.forceUcs2 ? -1 : gsm7Length(text);
  const encoding = septets >= 0 ? 'gsm7' : 'ucs2';
  if (encoding === 'gsm7' ? septets <= SINGLE_SEPTETS : text.length * 2 <= SINGLE_OCTETS) {
    return [{ text, encoding, concat: undefined, units: encoding === 'gsm7' ? septets : text.length * 2 }];
  }
  const octets = concatCapacityOctets(bits);
  const cuts =
    encoding === 'gsm7' ? cutGsm7(text, Math.floor((octets * 8) / 7)) : cutUcs2(text, Math.floor(octets / 2));
  if (cuts.length > MAX_PARTS) {
    throw new PduError(
      'text_too_long',
      'text',
      undefined,
      `needs ${cuts.length} parts, at most ${MAX_PARTS}`,
    );
  }
  return cuts.map((cut, i) => ({
    text: text.slice(cut.start, cut.end),
    encoding,
    concat: { reference, total: cuts.length, sequence: i + 1, referenceBits: bits },
    units: cut.units,
  }));
}
