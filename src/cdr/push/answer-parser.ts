// An incremental parser of one HTTP/1.1 answer, for the push sender (http-sender.ts). It takes the
// bytes as they arrive and reads what delivery needs: the final status (after any 1xx interim
// answers), the framing (Content-Length, chunked with extensions and trailers, or until the
// connection closes; none for 204 and 304), whether the connection can be reused (Connection,
// HTTP/1.0), Location, and the first characters of the body. Anything it cannot frame safely is
// an error that says what was wrong, and the sender drops the connection.

/** A complete answer. */
export interface ParsedAnswer {
  status: number;
  /** The connection may carry the next request. */
  keepAlive: boolean;
  location: string | undefined;
  /** The first `keepChars` characters of the body (UTF-8). */
  body: string;
  /** Bytes arrived after the answer's end (the connection must not be reused). */
  extra: boolean;
}

/** What push() or end() made of the bytes so far: nothing yet, the answer, or an error. */
export interface ParseStep {
  answer?: ParsedAnswer;
  error?: string;
}

/** Limits: the status line and headers (all interim answers included), a chunk-size line, trailers. */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4 * 1024;

/** An RFC 9110 token: what a header name is made of (the sender checks its own names with it). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: .*)?$/;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

type State =
  | 'head'
  | 'length'
  | 'chunk-size'
  | 'chunk-data'
  | 'chunk-crlf'
  | 'trailers'
  | 'until-close'
  | 'done';

/** Parses one answer; make a new one per request. */
export class AnswerParser {
  /** The final status, once its head is read. */
  status: number | null = null;
  private state: State = 'head';
  // Unparsed bytes held until their line or head is complete, and the last 3 of them.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  private headBytes = 0;
  private trailerBytes = 0;
  private remaining = 0;
  private keepAlive = true;
  private location: string | undefined;
  private readonly bodyParts: Buffer[] = [];
  private bodyBytes = 0;
  private readonly keepBytes: number;

  constructor(private readonly keepChars: number) {
    // A character is at most 4 bytes of UTF-8.
    this.keepBytes = keepChars * 4;
  }

  /** Feeds the next bytes of the connection. */
  push(chunk: Buffer): ParseStep {
    if (this.state === 'done') return {};
    let data = chunk;
    if (this.pending.length > 0) {
      // Bytes are waiting for a line or head end: until one arrives, only collect (a server
      // trickling bytes one at a time costs linear time, not quadratic).
      const term = this.state === 'head' ? HEAD_END : this.state === 'chunk-crlf' ? null : CRLF;
      if (term && !this.ends(term, chunk)) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
        return this.pendingBytes > this.pendingLimit() ? this.tooLong(this.pendingWhat()) : {};
      }
      data = Buffer.concat([...this.pending, chunk]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    let off = 0;
    for (;;) {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf(HEAD_END, off);
          if (end < 0) {
            if (this.headBytes + data.length - off > MAX_HEAD_BYTES) return this.tooLong('answer headers');
            this.hold(data.subarray(off));
            return {};
          }
          this.headBytes += end + 4 - off;
          if (this.headBytes > MAX_HEAD_BYTES) return this.tooLong('answer headers');
          const problem = this.head(data.toString('latin1', off, end));
          if (problem) return { error: problem };
          off = end + 4;
          break;
        }
        case 'length':
        case 'chunk-data': {
          const n = Math.min(this.remaining, data.length - off);
          this.keep(data, off, n);
          off += n;
          this.remaining -= n;
          if (this.remaining > 0) return {};
          this.state = this.state === 'length' ? 'done' : 'chunk-crlf';
          break;
        }
        case 'chunk-crlf': {
          if (data.length - off < 2) {
            this.hold(data.subarray(off));
            return {};
          }
          if (data[off] !== 13 || data[off + 1] !== 10)
            return { error: 'malformed chunked answer: chunk not followed by CRLF' };
          off += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'chunk-size': {
          const end = data.indexOf(CRLF, off);
          if (end < 0) {
            if (data.length - off > MAX_LINE_BYTES) return this.tooLong('chunk-size line');
            this.hold(data.subarray(off));
            return {};
          }
          const line = data.toString('latin1', off, end);
          off = end + 2;
          const size = (line.split(';', 1)[0] as string).trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(size)) {
            return { error: `malformed chunked answer: chunk size ${JSON.stringify(line.slice(0, 40))}` };
          }
          this.remaining = Number.parseInt(size, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'trailers': {
          const end = data.indexOf(CRLF, off);
          if (end < 0) {
            if (this.trailerBytes + data.length - off > MAX_HEAD_BYTES)
              return this.tooLong('answer trailers');
            this.hold(data.subarray(off));
            return {};
          }
          this.trailerBytes += end + 2 - off;
          if (this.trailerBytes > MAX_HEAD_BYTES) return this.tooLong('answer trailers');
          const empty = end === off;
          off = end + 2;
          if (empty) this.state = 'done';
          break;
        }
        case 'until-close':
          this.keep(data, off, data.length - off);
          return {};
        case 'done':
          return { answer: this.answer(off < data.length) };
      }
    }
  }

  /** The connection ended: completes an answer framed by the close, else nothing. */
  end(): ParseStep {
    if (this.state === 'until-close') {
      this.state = 'done';
      return { answer: this.answer(false) };
    }
    return {};
  }

  /** Whether the terminator ends within `chunk`, counting the held bytes before it. */
  private ends(term: Buffer, chunk: Buffer): boolean {
    if (chunk.indexOf(term) >= 0) return true;
    const seam = Buffer.concat([this.tail, chunk.subarray(0, term.length - 1)]);
    if (seam.indexOf(term) >= 0) return true;
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-3);
    return false;
  }

  private hold(rest: Buffer): void {
    this.pending = [rest];
    this.pendingBytes = rest.length;
    this.tail = Buffer.from(rest.subarray(-3));
  }

  private pendingLimit(): number {
    if (this.state === 'head') return MAX_HEAD_BYTES - this.headBytes;
    if (this.state === 'trailers') return MAX_HEAD_BYTES - this.trailerBytes;
    return MAX_LINE_BYTES;
  }

  private pendingWhat(): string {
    return this.state === 'head'
      ? 'answer headers'
      : this.state === 'trailers'
        ? 'answer trailers'
        : 'chunk-size line';
  }

  private tooLong(what: string): ParseStep {
    return { error: `malformed answer: ${what} longer than ${MAX_HEAD_BYTES} bytes` };
  }

  /** Reads one head (status line and headers); sets the state for what follows it. */
  private head(text: string): string | null {
    const lines = text.split('\r\n');
    const statusLine = lines[0] as string;
    const m = STATUS_LINE.exec(statusLine);
    if (!m) return `malformed answer: status line ${JSON.stringify(statusLine.slice(0, 60))}`;
    const http10 = m[1] === '0';
    const status = Number(m[2]);
    let length: number | undefined;
    let codings = '';
    const connection = new Set<string>();
    let location: string | undefined;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) return `malformed answer: header line ${JSON.stringify(line.slice(0, 60))}`;
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      switch (name.toLowerCase()) {
        case 'content-length':
          for (const part of value.split(',')) {
            const v = part.trim();
            if (!/^\d{1,15}$/.test(v))
              return `malformed answer: Content-Length ${JSON.stringify(value.slice(0, 40))}`;
            if (length !== undefined && length !== Number(v))
              return 'malformed answer: conflicting Content-Length values';
            length = Number(v);
          }
          break;
        case 'transfer-encoding':
          codings = codings === '' ? value : `${codings},${value}`;
          break;
        case 'connection':
          for (const t of value.split(',')) connection.add(t.trim().toLowerCase());
          break;
        case 'location':
          location = value;
          break;
      }
    }
    if (status < 200) {
      if (status === 101) return 'answer 101 Switching Protocols was not asked for';
      return null; // an interim answer: the final one follows
    }
    this.status = status;
    this.location = location;
    this.keepAlive = http10 ? connection.has('keep-alive') : !connection.has('close');
    if (status === 204 || status === 304) {
      this.state = 'done';
    } else if (codings !== '') {
      const last = (codings.split(',').pop() as string).trim().toLowerCase();
      if (last === 'chunked') this.state = 'chunk-size';
      else {
        this.state = 'until-close';
        this.keepAlive = false;
      }
    } else if (length !== undefined) {
      this.remaining = length;
      this.state = length === 0 ? 'done' : 'length';
    } else {
      this.state = 'until-close';
      this.keepAlive = false;
    }
    return null;
  }

  private keep(data: Buffer, off: number, n: number): void {
    const room = this.keepBytes - this.bodyBytes;
    if (room <= 0 || n <= 0) return;
    const take = Math.min(room, n);
    // A copy, so the socket's whole chunk is not kept alive by a small slice of it.
    this.bodyParts.push(Buffer.from(data.subarray(off, off + take)));
    this.bodyBytes += take;
  }

  private answer(extra: boolean): ParsedAnswer {
    const text = this.bodyParts.length === 0 ? '' : Buffer.concat(this.bodyParts).toString('utf8');
    return {
      status: this.status as number,
      keepAlive: this.keepAlive,
      location: this.location,
      body: text.slice(0, this.keepChars),
      extra,
    };
  }
}
