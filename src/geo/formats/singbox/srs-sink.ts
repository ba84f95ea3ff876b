// A growable byte buffer for the body of a sing-box .srs file, with the encodings sing-box's
// writer uses: single bytes, uvarints (varbin.WriteUvarint), big-endian uint64, raw bytes.

/** Collects the uncompressed body of an .srs file. */
export class SrsSink {
  private buf = new Uint8Array(1024);
  private length = 0;

  /** The bytes written so far (a view). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** Writes one byte. */
  u8(value: number): void {
    this.reserve(1);
    this.buf[this.length++] = value;
  }

  /** Writes a uvarint (7 bits a byte, low bits first). */
  uvarint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.u8((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.u8(v);
  }

  /** Writes a big-endian uint64 (values up to 2^53). */
  u64(value: number): void {
    this.reserve(8);
    let v = value;
    for (let i = 7; i >= 0; i--) {
      this.buf[this.length + i] = v % 256;
      v = Math.floor(v / 256);
    }
    this.length += 8;
  }

  /** Writes raw bytes. */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Writes a uvarint length then the bytes. */
  lengthPrefixed(bytes: Uint8Array): void {
    this.uvarint(bytes.length);
    this.raw(bytes);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }
}
