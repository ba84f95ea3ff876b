// A bounds-checked protobuf binary reader for the geo messages. Every read checks the end of the
// current message; a truncated or malformed field throws GeoError('dat_corrupt') naming the byte
// offset in the file (base + position), never a RangeError from deep inside.
import { GeoError } from '../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Reads fields from bytes[pos, end); `base` is the file offset of bytes[0], used in errors. */
export class WireReader {
  pos: number;
  /** End of the current message; a caller may narrow it to read a nested message in place. */
  end: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
    readonly base = 0,
  ) {
    this.pos = start;
    this.end = end;
  }

  /** Throws a dat_corrupt error about the byte at `at` (a position in bytes). */
  fail(what: string, at = this.pos): never {
    throw new GeoError('dat_corrupt', `corrupt data at byte ${this.base + at}: ${what}`);
  }

  /** True when the current message has no more fields. */
  done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads an unsigned varint that must fit in 32 bits. */
  uint32(): number {
    const start = this.pos;
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) this.fail('truncated varint', start);
      const b = this.bytes[this.pos++] as number;
      if (shift < 28) result |= (b & 0x7f) << shift;
      else if (shift === 28) {
        if ((b & 0x70) !== 0) this.fail('varint larger than 32 bits', start);
        result |= (b & 0x0f) << 28;
      } else if (b & 0x7f) this.fail('varint larger than 32 bits', start);
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
      if (shift >= 70) this.fail('varint longer than 10 bytes', start);
    }
  }

  /** Reads a varint as a signed 64-bit integer. */
  int64(): bigint {
    const start = this.pos;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('truncated varint', start);
      const b = this.bytes[this.pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asIntN(64, result);
      shift += 7n;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /** Reads a length prefix and returns the end position of the field's content, checked. */
  lengthEnd(): number {
    const at = this.pos;
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.end) {
      this.fail(
        `field of ${length} bytes runs past the end of its message (${this.end - this.pos} left)`,
        at,
      );
    }
    return end;
  }

  /** Reads a length-delimited field as a UTF-8 string. */
  string(): string {
    const end = this.lengthEnd();
    const start = this.pos;
    this.pos = end;
    return decodeUtf8(this.bytes, start, end);
  }

  /** Reads a length-delimited field as bytes (a copy). */
  bytesField(): Uint8Array {
    const end = this.lengthEnd();
    const out = new Uint8Array(this.bytes.subarray(this.pos, end));
    this.pos = end;
    return out;
  }

  /** Skips a field of the given wire type (unknown fields are ignored, as protobuf does). */
  skip(wireType: number): void {
    const at = this.pos;
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.lengthEnd();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        this.fail(`unsupported wire type ${wireType}`, at);
    }
    if (this.pos > this.end) this.fail('truncated fixed-size field', at);
  }
}

/** Decodes UTF-8 with an ASCII fast path (domain rules are nearly always ASCII). */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < 64) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if ((bytes[i] as number) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return utf8.decode(bytes.subarray(start, end));
}
