// Bytes from the serial port -> typed AT frames. Accepts input in any chunking, never throws:
// bytes it cannot make sense of come out as 'discarded' frames. The `> ` prompt has no line end,
// and +CDS / +CMT are two lines (header, then the PDU), so both need state across chunks.
import type { AtFrame, FinalResult, Urc } from './at-frame.js';

const CR = 0x0d;
const LF = 0x0a;
const PROMPT = 0x3e; // '>'
const SPACE = 0x20;

/** Vendor noise: status lines modems print on their own that carry nothing the engine needs. */
const NOISE_PATTERNS: readonly RegExp[] = [
  /^\^[A-Z]+[:\s]?/, // Huawei ^RSSI:, ^BOOT:, ^MODE:, ^SIMST:, ^SYSSTART
  /^(SMS|PB|CALL) (DONE|READY)$/,
  /^RDY$/,
  /^\+QIND:/,
  /^\+QUSIM:/,
  /^\+CFUN: \d+$/,
  /^\+CREG: \d+$/,
  /^\+CGREG: \d+$/,
  /^\+CEREG: \d+$/,
  /^\+CIEV:/,
  /^\+CUSD:/,
  /^\+CLIP:/,
  /^\+PSUTTZ:/,
  /^\*PSUTTZ:/,
  /^\+CTZV:/,
  /^DST:/,
];

/** Texts some modems print instead of numbers when +CMEE=2; mapped to the 27.007 code. */
const CME_TEXT_CODES: Readonly<Record<string, number>> = {
  'sim not inserted': 10,
  'sim pin required': 11,
  'sim puk required': 12,
  'sim failure': 13,
  'sim busy': 14,
  'sim wrong': 15,
  'incorrect password': 16,
};

/** Limits of the line parser. */
export interface AtLineParserOptions {
  /** Longest line kept; longer runs without a line end are discarded (default 4096 bytes). */
  maxLineLength?: number;
}

/** Splits a byte stream into AT frames; feed chunks with push(), read frames from its return value. */
export class AtLineParser {
  private buffer: Buffer = Buffer.alloc(0);
  private pendingPduHeader: { type: 'cds' | 'cmt'; length: number; text: string } | undefined;
  private readonly maxLineLength: number;

  constructor(options: AtLineParserOptions = {}) {
    this.maxLineLength = options.maxLineLength ?? 4096;
  }

  /** Forgets any partial line (after the port was reopened). */
  reset(): void {
    this.buffer = Buffer.alloc(0);
    this.pendingPduHeader = undefined;
  }

  /** Adds bytes and returns every frame now complete, in order. */
  push(chunk: Uint8Array): AtFrame[] {
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
    const frames: AtFrame[] = [];
    let start = 0;
    const buf = this.buffer;
    while (start < buf.length) {
      const first = buf[start];
      if (first === CR || first === LF) {
        start++;
        continue;
      }
      if (first === PROMPT && this.pendingPduHeader === undefined) {
        if (start + 1 >= buf.length) break; // wait for the byte after '>'
        if (buf[start + 1] === SPACE) {
          frames.push({ kind: 'prompt' });
          start += 2;
          continue;
        }
      }
      let end = start;
      while (end < buf.length && buf[end] !== CR && buf[end] !== LF) end++;
      if (end === buf.length) {
        if (end - start > this.maxLineLength) {
          frames.push({
            kind: 'discarded',
            bytes: Buffer.from(buf.subarray(start, end)),
            reason: 'too_long',
          });
          start = end;
        }
        break;
      }
      this.emitLine(buf.subarray(start, end), frames);
      start = end + 1;
    }
    this.buffer = start >= buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(start));
    return frames;
  }

  private emitLine(bytes: Buffer, frames: AtFrame[]): void {
    if (bytes.length > this.maxLineLength) {
      frames.push({ kind: 'discarded', bytes: Buffer.from(bytes), reason: 'too_long' });
      return;
    }
    const text = decodeText(bytes);
    if (text === undefined) {
      frames.push({ kind: 'discarded', bytes: Buffer.from(bytes), reason: 'binary' });
      return;
    }
    const header = this.pendingPduHeader;
    if (header !== undefined) {
      this.pendingPduHeader = undefined;
      if (/^[0-9A-Fa-f]+$/.test(text)) {
        const urc: Urc = { type: header.type, length: header.length, pdu: text.toUpperCase() };
        frames.push({ kind: 'urc', urc, text: `${header.text}\n${text}` });
        return;
      }
      frames.push({ kind: 'discarded', bytes: Buffer.from(header.text), reason: 'orphan_pdu_header' });
    }
    const trimmed = text.trim();
    if (trimmed === '') return;
    const pduHeader = matchPduHeader(trimmed);
    if (pduHeader !== undefined) {
      this.pendingPduHeader = { ...pduHeader, text: trimmed };
      return;
    }
    frames.push(classifyLine(trimmed));
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(bytes: Buffer): string | undefined {
  let ascii = true;
  for (const b of bytes) {
    if ((b < 0x20 && b !== 0x09) || b === 0x7f) return undefined;
    if (b >= 0x80) ascii = false;
  }
  if (ascii) return bytes.toString('latin1');
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

function matchPduHeader(text: string): { type: 'cds' | 'cmt'; length: number } | undefined {
  const cds = /^\+CDS:\s*(\d+)$/.exec(text);
  if (cds?.[1] !== undefined) return { type: 'cds', length: Number(cds[1]) };
  const cmt = /^\+CMT:\s*(?:"[^"]*"|[^,]*)?,\s*(\d+)$/.exec(text);
  if (cmt?.[1] !== undefined) return { type: 'cmt', length: Number(cmt[1]) };
  return undefined;
}

/** Classifies one complete, non-empty line that is not part of a two-line URC. */
export function classifyLine(text: string): AtFrame {
  const final = parseFinal(text);
  if (final !== undefined) return { kind: 'final', result: final, text };
  const urc = parseUrc(text);
  if (urc !== undefined) return { kind: 'urc', urc, text };
  if (NOISE_PATTERNS.some((re) => re.test(text))) return { kind: 'noise', text };
  return { kind: 'line', text };
}

function parseFinal(text: string): FinalResult | undefined {
  if (text === 'OK') return { status: 'ok' };
  if (text === 'ERROR' || text === 'NO CARRIER' || text === 'COMMAND NOT SUPPORT')
    return { status: 'error', text };
  const ext = /^\+(CMS|CME) ERROR:\s*(.*)$/.exec(text);
  if (ext?.[1] !== undefined && ext[2] !== undefined) {
    const detail = ext[2].trim();
    const numeric = /^\d+$/.test(detail) ? Number(detail) : undefined;
    const code = numeric ?? CME_TEXT_CODES[detail.toLowerCase()];
    return { status: ext[1] === 'CMS' ? 'cms_error' : 'cme_error', code, text: detail };
  }
  return undefined;
}

function parseUrc(text: string): Urc | undefined {
  if (text === 'RING') return { type: 'ring' };
  const stored = /^\+(CMTI|CDSI):\s*"([^"]*)"\s*,\s*(\d+)$/.exec(text);
  if (stored?.[1] !== undefined && stored[2] !== undefined && stored[3] !== undefined) {
    return { type: stored[1] === 'CMTI' ? 'cmti' : 'cdsi', storage: stored[2], index: Number(stored[3]) };
  }
  return undefined;
}
