// The AMI byte stream -> frames. Bytes arrive split anywhere (mid-line, mid-CRLF, mid-UTF-8
// character); the parser keeps what it has not framed yet and emits, in order:
//   banner    the greeting line "Asterisk Call Manager/x.y.z" that opens a connection
//   message   one block of "Key: Value" lines ended by an empty line (keys lower-cased)
//   discarded a block it could not read (a line without a colon, binary junk, over the size
//             limit), with the reason and the stream offset where it began: never thrown
// Pure: no I/O, no timers. Lines end in CRLF (AMI) or a bare LF.

/** One AMI block as keys (lower-cased) and values; a repeated key keeps its first value. */
export type AmiFields = ReadonlyMap<string, string>;

/** What the parser emits. */
export type AmiFrame =
  | { kind: 'banner'; text: string }
  | { kind: 'message'; fields: AmiFields; offset: number }
  | { kind: 'discarded'; reason: string; offset: number; bytes: number };

/** Limits of AmiParser. */
export interface AmiParserOptions {
  /** Largest block in bytes before it is discarded (default 64 KiB). */
  maxBlockBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Incremental AMI framer; feed it bytes, get frames. */
export class AmiParser {
  private readonly maxBlock: number;
  private pending: Buffer = Buffer.alloc(0);
  /** Stream offset of pending[0]. */
  private base = 0;
  private sawBanner = false;
  // The block being read.
  private fields = new Map<string, string>();
  private blockStart = -1;
  private blockBytes = 0;
  private bad: string | null = null;

  constructor(options: AmiParserOptions = {}) {
    this.maxBlock = options.maxBlockBytes ?? 64 * 1024;
  }

  /** Frames completed by these bytes. */
  push(chunk: Uint8Array): AmiFrame[] {
    const out: AmiFrame[] = [];
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    let from = 0;
    for (;;) {
      const lf = this.pending.indexOf(LF, from);
      if (lf < 0) break;
      const end = lf > from && this.pending[lf - 1] === CR ? lf - 1 : lf;
      this.line(this.pending.subarray(from, end), this.base + from, lf + 1 - from, out);
      from = lf + 1;
    }
    // An endless line without LF must not grow memory without bound.
    if (this.pending.length - from > this.maxBlock) {
      this.startBlock(this.base + from);
      this.bad ??= `a line longer than ${this.maxBlock} bytes`;
      this.blockBytes += this.pending.length - from;
      from = this.pending.length;
    }
    this.base += from;
    this.pending = this.pending.subarray(from);
    return out;
  }

  private startBlock(offset: number): void {
    if (this.blockStart < 0) this.blockStart = offset;
  }

  private line(bytes: Buffer, offset: number, size: number, out: AmiFrame[]): void {
    if (bytes.length === 0) {
      this.endBlock(out);
      return;
    }
    this.startBlock(offset);
    this.blockBytes += size;
    if (this.blockBytes > this.maxBlock) this.bad ??= `a block longer than ${this.maxBlock} bytes`;
    if (this.bad) return;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      this.bad = 'bytes that are not UTF-8 text';
      return;
    }
    const colon = text.indexOf(':');
    if (colon <= 0) {
      // The greeting opens the stream and has no colon: "Asterisk Call Manager/11.0.0".
      if (!this.sawBanner && this.fields.size === 0 && /^Asterisk Call Manager\//.test(text)) {
        this.sawBanner = true;
        this.blockStart = -1;
        this.blockBytes = 0;
        out.push({ kind: 'banner', text });
        return;
      }
      this.bad = `a line without "Key: Value" (${JSON.stringify(text.slice(0, 40))})`;
      return;
    }
    const key = text.slice(0, colon).trim().toLowerCase();
    const value = text.slice(colon + 1).replace(/^ /, '');
    if (!this.fields.has(key)) this.fields.set(key, value);
  }

  private endBlock(out: AmiFrame[]): void {
    if (this.blockStart < 0) return; // blank lines between blocks
    if (this.bad) {
      out.push({ kind: 'discarded', reason: this.bad, offset: this.blockStart, bytes: this.blockBytes });
    } else {
      out.push({ kind: 'message', fields: this.fields, offset: this.blockStart });
    }
    this.fields = new Map();
    this.blockStart = -1;
    this.blockBytes = 0;
    this.bad = null;
  }
}
