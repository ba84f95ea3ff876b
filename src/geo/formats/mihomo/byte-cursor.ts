// A bounds-checked big-endian reader over a decompressed .mrs payload. Every failure throws
// GeoError('mrs_corrupt') naming the file and the payload byte offset; lengths are checked
// against the bytes that remain before anything is allocated for them.
import { GeoError } from '../../errors.js';

/** Reads bytes[pos..] for the .mrs readers; `where` names the file and the stream in messages. */
export class ByteCursor {
  pos = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly where: string,
  ) {}

  /** Throws an mrs_corrupt error about the byte at `at`. */
  fail(what: string, at = this.pos): never {
    throw new GeoError('mrs_corrupt', `${this.where} byte ${at}: ${what}`);
  }

  /** Bytes left after pos. */
  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** One byte. */
  u8(what: string): number {
    if (this.pos >= this.bytes.length) this.fail(`truncated: ${what} missing`);
    return this.bytes[this.pos++] as number;
  }

  /** A big-endian int64 that must lie in [min, max]; returned as a number. */
  i64(what: string, min: number, max: number): number {
    const at = this.pos;
    if (this.remaining < 8) this.fail(`truncated: ${what} (8 bytes) missing`);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + at, 8);
    const v = view.getBigInt64(0, false);
    this.pos += 8;
    if (v < BigInt(min) || v > BigInt(max)) this.fail(`${what} is ${v}, outside ${min}..${max}`, at);
    return Number(v);
  }

  /** A length field counting items of `size` bytes each that must all fit in what remains. */
  length(what: string, size: number, min: number): number {
    const at = this.pos;
    const n = this.i64(what, min, Number.MAX_SAFE_INTEGER);
    if (n * size > this.remaining) {
      this.fail(`${what} ${n} needs ${n * size} bytes but only ${this.remaining} remain`, at);
    }
    return n;
  }

  /** The next n bytes (a view). */
  take(n: number, what: string): Uint8Array {
    if (n > this.remaining) this.fail(`truncated: ${what} needs ${n} bytes, ${this.remaining} remain`);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
