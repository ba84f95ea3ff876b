// A growable octet buffer for the encoders: single octets, octet runs and GSM-7 septets packed
// straight into place, so an encode allocates one buffer and one hex string per part.

import { ESC, EXTENDED, GSM7_ENCODE } from './gsm7-alphabet.js';

/** Appends PDU octets; `toHex()` gives the uppercase hex a modem expects. */
export class PduWriter {
  private buf = new Uint8Array(192);
  /** Octets written so far. */
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.length + extra));
    bigger.set(this.buf.subarray(0, this.length));
    this.buf = bigger;
  }

  /** Appends one octet. */
  u8(value: number): void {
    this.ensure(1);
    this.buf[this.length++] = value & 0xff;
  }

  /** Appends octets. */
  bytes(values: ArrayLike<number>): void {
    this.ensure(values.length);
    for (let i = 0; i < values.length; i++) this.buf[this.length++] = (values[i] ?? 0) & 0xff;
  }

  /** Overwrites the octet at `index` (for a length written before its value is known). */
  set(index: number, value: number): void {
    this.buf[index] = value & 0xff;
  }

  /**
   * Packs a GSM-7 text (every character must be in GSM-7) after `fillBits` zero bits, extension
   * characters as ESC + septet; returns the number of septets written.
   */
  gsm7(text: string, fillBits: number): number {
    this.ensure(text.length * 2 + 1);
    let acc = 0;
    let bits = fillBits;
    let septets = 0;
    for (let i = 0; i < text.length; i++) {
      const code = GSM7_ENCODE[text.charCodeAt(i)] ?? 0;
      if (code & EXTENDED) {
        acc |= ESC << bits;
        bits += 7;
        septets++;
        if (bits >= 8) {
          this.buf[this.length++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
      }
      acc |= (code & 0x7f) << bits;
      bits += 7;
      septets++;
      if (bits >= 8) {
        this.buf[this.length++] = acc & 0xff;
        acc >>>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) this.buf[this.length++] = acc & 0xff;
    return septets;
  }

  /** Appends a text as UCS-2 (UTF-16 big-endian code units, surrogates as they are). */
  ucs2(text: string): void {
    this.ensure(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      this.buf[this.length++] = unit >> 8;
      this.buf[this.length++] = unit & 0xff;
    }
  }

  /** The octets written so far as uppercase hex. */
  toHex(): string {
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.length).toString('hex').toUpperCase();
  }
}
