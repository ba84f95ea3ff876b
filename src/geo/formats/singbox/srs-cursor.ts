// A bounds-checked reader over the decompressed body of a sing-box .srs file (what follows the
// 4-byte header and zlib): bytes, Go-style uvarints, big-endian uint64 counts. Every failure is a
// GeoError('ruleset_corrupt') naming the file and the byte offset in the decompressed body.
import { GeoError } from '../../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the decompressed body of an .srs file; `name` is the file's name, used in errors. */
export class SrsCursor {
  pos = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly name: string,
  ) {}

  /** Throws a ruleset_corrupt error about the body byte at `at`. */
  fail(what: string, at = this.pos): never {
    throw new GeoError(
      'ruleset_corrupt',
      `${this.name}: corrupt rule-set at byte ${at} of the decompressed data: ${what}`,
    );
  }

  /** Bytes left to read. */
  get left(): number {
    return this.bytes.length - this.pos;
  }

  /** Reads one byte. */
  u8(): number {
    if (this.pos >= this.bytes.length) this.fail('unexpected end of data');
    return this.bytes[this.pos++] as number;
  }

  /** Reads a uvarint (Go's encoding/binary, up to 10 bytes); values above 2^53 are refused. */
  uvarint(): number {
    const start = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) {
        if (result > Number.MAX_SAFE_INTEGER) this.fail('varint too large', start);
        return result;
      }
      scale *= 128;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /**
   * Reads a count of items that each take at least `minBytes` bytes and checks it against what is
   * left, so that a corrupt count is refused before anything is allocated for it.
   */
  count(what: string, minBytes: number): number {
    const at = this.pos;
    const n = this.uvarint();
    if (n * minBytes > this.left) {
      this.fail(`${what} count ${n} does not fit in the ${this.left} bytes left`, at);
    }
    return n;
  }

  /** Reads a big-endian uint64 count (the IP set's range count), checked like count(). */
  u64Count(what: string, minBytes: number): number {
    const at = this.pos;
    if (this.left < 8) this.fail('unexpected end of data');
    let n = 0;
    for (let i = 0; i < 8; i++) n = n * 256 + (this.bytes[this.pos++] as number);
    if (n * minBytes > this.left) {
      this.fail(`${what} count ${n} does not fit in the ${this.left} bytes left`, at);
    }
    return n;
  }

  /** Reads n bytes (a view). */
  take(n: number): Uint8Array {
    if (n > this.left) this.fail(`${n} bytes needed, ${this.left} left`);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Reads a uvarint-length-prefixed UTF-8 string. */
  string(): string {
    const at = this.pos;
    const length = this.count('string byte', 1);
    const raw = this.take(length);
    try {
      return utf8.decode(raw);
    } catch {
      return this.fail('string is not valid UTF-8', at);
    }
  }
}
