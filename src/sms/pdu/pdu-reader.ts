// A bounds-checked cursor over PDU bytes: every read names the TPDU field it is for, so running
// off the end becomes PduError 'truncated' saying which field and at which byte offset.

import { PduError } from './pdu-error.js';

/** Sequential reader of PDU octets; throws PduError 'truncated' instead of reading past the end. */
export class PduReader {
  /** The whole PDU, SMSC prefix included. */
  readonly bytes: Uint8Array;
  /** Offset of the next octet to read. */
  pos = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** Octets left after the cursor. */
  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** Reads one octet of `field`. */
  u8(field: string): number {
    const value = this.bytes[this.pos];
    if (value === undefined) throw this.truncated(field, 1);
    this.pos++;
    return value;
  }

  /** Returns the offset of `n` octets of `field` and moves past them. */
  skip(n: number, field: string): number {
    if (this.pos + n > this.bytes.length) throw this.truncated(field, n);
    const start = this.pos;
    this.pos += n;
    return start;
  }

  private truncated(field: string, wanted: number): PduError {
    return new PduError(
      'truncated',
      field,
      this.pos,
      `PDU ends after ${this.bytes.length} octets; ${wanted} more needed`,
    );
  }
}
