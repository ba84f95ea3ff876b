// A hand-written protobuf binary writer for the geo messages: one growing buffer, nested messages
// written in place and then length-prefixed (fork/join), so building a 2 MB file copies little.
// Output is byte-identical to @bufbuild/protobuf's toBinary for the same message (tested).

/** Wire types used by the geo schema. */
export const WireType = { Varint: 0, LengthDelimited: 2 } as const;

/** Appends protobuf fields to a growing buffer. */
export class WireWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Writes an unsigned varint of at most 32 bits. */
  uint32(value: number): void {
    this.ensure(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  /** Writes a signed 64-bit varint (negative values take ten bytes, as protobuf int64 does). */
  int64(value: bigint): void {
    this.ensure(10);
    let v = BigInt.asUintN(64, value);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  /** Writes one raw byte (for hand-built fixed-shape messages). */
  byte(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  /** Writes a raw 32-bit big-endian word (for address bytes). */
  word32(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32BE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** Writes a field tag. */
  tag(field: number, wireType: number): void {
    this.uint32((field << 3) | wireType);
  }

  /** Writes a length-delimited string field. */
  stringField(field: number, value: string): void {
    this.tag(field, WireType.LengthDelimited);
    const max = value.length * 3;
    this.ensure(max + 5);
    // Reserve one length byte when the string is short enough (the common case), else measure.
    if (max < 128) {
      const start = this.pos + 1;
      const n = this.buf.write(value, start, 'utf8');
      this.buf[this.pos] = n;
      this.pos = start + n;
      return;
    }
    const n = Buffer.byteLength(value, 'utf8');
    this.uint32(n);
    this.pos += this.buf.write(value, this.pos, 'utf8');
  }

  /** Writes a length-delimited bytes field. */
  bytesField(field: number, value: Uint8Array): void {
    this.tag(field, WireType.LengthDelimited);
    this.uint32(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Writes a varint field. */
  uint32Field(field: number, value: number): void {
    this.tag(field, WireType.Varint);
    this.uint32(value);
  }

  /** Starts a nested message; pass the result to join() once its fields are written. */
  fork(): number {
    return this.pos;
  }

  /** Ends a nested message started at `start`: inserts its tag and length before its content. */
  join(field: number, start: number): void {
    const length = this.pos - start;
    const tag = (field << 3) | WireType.LengthDelimited;
    const head = varintSize(tag) + varintSize(length);
    this.ensure(head);
    this.buf.copyWithin(start + head, start, this.pos);
    const end = this.pos + head;
    this.pos = start;
    this.uint32(tag);
    this.uint32(length);
    this.pos = end;
  }

  /** The bytes written so far (a view, valid until the next write). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** The number of bytes a 32-bit unsigned varint takes. */
export function varintSize(value: number): number {
  const v = value >>> 0;
  if (v < 1 << 7) return 1;
  if (v < 1 << 14) return 2;
  if (v < 1 << 21) return 3;
  if (v < 1 << 28) return 4;
  return 5;
}
