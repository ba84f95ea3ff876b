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

function decodeBlock(block: Buffer, firstLine: number, bytesRead: number): LineBatch {
  let lines: string[];
  const latin1Lines: number[] = [];
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
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  if (firstLine === 1 && lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
  return { firstLine, lines, latin1Lines, bytesRead };
}

/** Yields the file's lines in batches of whole lines (a final line without LF included). */
export async function* readLineBatches(path: string, chunkBytes = 1 << 20): AsyncGenerator<LineBatch> {
  let carry: Buffer = Buffer.alloc(0);
  let nextLine = 1;
  let bytesRead = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) {
    const buf = chunk as Buffer;
    bytesRead += buf.length;
    const lastLf = buf.lastIndexOf(LF);
    if (lastLf === -1) {
      carry = Buffer.concat([carry, buf]);
      continue;
    }
    const block = carry.length ? Buffer.concat([carry, buf.subarray(0, lastLf)]) : buf.subarray(0, lastLf);
    carry = Buffer.from(buf.subarray(lastLf + 1));
    const batch = decodeBlock(block, nextLine, bytesRead);
    nextLine += batch.lines.length;
    yield batch;
  }
  if (carry.length) yield decodeBlock(carry, nextLine, bytesRead);
}
