// Reads a CDR file as batches of decoded lines: bytes -> split on LF -> UTF-8 (fatal) or, for a line
// that is not valid UTF-8, Latin-1 -> trailing CR dropped. One physical line is one CDR: Asterisk
// never writes a raw newline inside a field, and a damaged line then cannot swallow its neighbours.
import { createReadStream } from 'node:fs';

/** A run of consecutive lines; `lines[i]` is line number `firstLine + i` (1-based). */
export interface LineBatch {
  firstLine: number;
  lines: string[];
  /** Line numbers in this batch that were not valid UTF-8 and were decoded as Latin-1. */
  latin1Lines: number[];
  /** Line numbers longer than the limit; their text in `lines` is ''. */
  oversized: number[];
  /** Bytes of the file consumed so far, for progress. */
  bytesRead: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LF = 0x0a;

/** Decodes one line: UTF-8 when valid, else Latin-1 (every byte one character, never fails). */
export function decodeLine(bytes: Uint8Array): { text: string; latin1: boolean } {
  try {
    return { text: utf8.decode(bytes), latin1: false };
  } catch {
    return {
      text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
      latin1: true,
    };
  }
}

/** Line length beyond which a line is reported instead of read (Asterisk's records are < 8 KiB). */
export const MAX_LINE_LENGTH = 1 << 20;

function decodeBlock(
  block: Buffer,
  firstLine: number,
  bytesRead: number,
  maxLine: number,
  firstIsTail: boolean,
  atFileStart: boolean,
): LineBatch {
  let lines: string[];
  const latin1Lines: number[] = [];
  const oversized: number[] = [];
  try {
    lines = utf8.decode(block).split('\n');
  } catch {
    // Some line is not UTF-8: decode line by line so only that line falls back to Latin-1.
    lines = [];
    let from = 0;
    for (let at = block.indexOf(LF); from <= block.length; at = block.indexOf(LF, from)) {
      const end = at === -1 ? block.length : at;
      const { text, latin1 } = decodeLine(block.subarray(from, end));
      if (latin1) latin1Lines.push(firstLine + lines.length);
      lines.push(text);
      from = end + 1;
      if (at === -1) break;
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if ((i === 0 && firstIsTail) || line.length > maxLine) {
      lines[i] = '';
      oversized.push(firstLine + i);
    } else if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  if (atFileStart && firstLine === 1 && lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
  return { firstLine, lines, latin1Lines, oversized, bytesRead };
}

/** How to read: the read size, the longest line read (longer ones come back as oversized), and
 * the byte range [start, end) of the file (start on a line boundary; default the whole file). */
export interface LineReaderOptions {
  chunkBytes?: number;
  maxLineLength?: number;
  start?: number;
  end?: number;
}

/** Yields the file's lines in batches of whole lines (a final line without LF included). */
export async function* readLineBatches(
  path: string,
  options: LineReaderOptions = {},
): AsyncGenerator<LineBatch> {
  const maxLine = options.maxLineLength ?? MAX_LINE_LENGTH;
  let carry: Buffer[] = [];
  let carryLength = 0;
  let skipping = false; // inside a line already longer than maxLine: drop bytes up to its LF
  let nextLine = 1;
  let bytesRead = 0;
  const atFileStart = (options.start ?? 0) === 0;
  const range = {
    highWaterMark: options.chunkBytes ?? 1 << 20,
    start: options.start ?? 0,
    ...(options.end === undefined ? {} : { end: options.end - 1 }),
  };
  for await (const chunk of createReadStream(path, range)) {
    const buf = chunk as Buffer;
    bytesRead += buf.length;
    const lastLf = buf.lastIndexOf(LF);
    if (lastLf === -1) {
      if (skipping) continue;
      carry.push(buf);
      carryLength += buf.length;
      if (carryLength > maxLine) {
        skipping = true;
        carry = [];
        carryLength = 0;
      }
      continue;
    }
    const head = buf.subarray(0, lastLf);
    const block = carry.length ? Buffer.concat([...carry, head]) : head;
    const batch = decodeBlock(block, nextLine, bytesRead, maxLine, skipping, atFileStart);
    carry = [Buffer.from(buf.subarray(lastLf + 1))];
    carryLength = buf.length - lastLf - 1;
    skipping = false;
    nextLine += batch.lines.length;
    yield batch;
  }
  if (skipping) yield { firstLine: nextLine, lines: [''], latin1Lines: [], oversized: [nextLine], bytesRead };
  else if (carryLength > 0)
    yield decodeBlock(Buffer.concat(carry), nextLine, bytesRead, maxLine, false, atFileStart);
}
