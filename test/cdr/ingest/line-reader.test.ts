import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { decodeLine, type LineBatch, readLineBatches } from '../../../src/cdr/ingest/line-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'bg-line-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(
  bytes: Buffer,
  chunkBytes?: number,
  maxLineLength?: number,
): Promise<{ lines: string[]; latin1: number[]; oversized: number[] }> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, bytes);
  const batches: LineBatch[] = [];
  const options = { ...(chunkBytes ? { chunkBytes } : {}), ...(maxLineLength ? { maxLineLength } : {}) };
  for await (const b of readLineBatches(path, options)) batches.push(b);
  const lines: string[] = [];
  for (const b of batches) {
    expect(b.firstLine).toBe(lines.length + 1);
    lines.push(...b.lines);
  }
  return {
    lines,
    latin1: batches.flatMap((b) => b.latin1Lines),
    oversized: batches.flatMap((b) => b.oversized),
  };
}

describe('decodeLine', () => {
  test('keeps valid UTF-8 and falls back to Latin-1 for anything else', () => {
    expect(decodeLine(Buffer.from('"José" <4005>', 'utf8'))).toEqual({
      text: '"José" <4005>',
      latin1: false,
    });
    expect(decodeLine(Buffer.from('"José" <4005>', 'latin1'))).toEqual({
      text: '"José" <4005>',
      latin1: true,
    });
  });
});

describe('readLineBatches', () => {
  test('decodes only the Latin-1 line as Latin-1 and the rest as UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('"Zoë Ångström",1\n', 'utf8'),
      Buffer.from('"José Muñoz",2\n', 'latin1'),
      Buffer.from('"Grüße",3\n', 'utf8'),
    ]);
    const { lines, latin1 } = await readAll(bytes);
    expect(lines).toEqual(['"Zoë Ångström",1', '"José Muñoz",2', '"Grüße",3']);
    expect(latin1).toEqual([2]);
  });

  test('drops CR of CRLF and a UTF-8 byte order mark, and keeps a last line without LF', async () => {
    const { lines } = await readAll(Buffer.from('\uFEFFa,b\r\nc,d\r\ne,f', 'utf8'));
    expect(lines).toEqual(['a,b', 'c,d', 'e,f']);
  });

  test('numbers lines the same whatever the read chunk size', async () => {
    const text = Array.from({ length: 50 }, (_v, i) => `"line ${i + 1}","é"`).join('\n');
    const whole = await readAll(Buffer.from(text, 'utf8'));
    const tiny = await readAll(Buffer.from(text, 'utf8'), 7);
    expect(tiny.lines).toEqual(whole.lines);
    expect(whole.lines[49]).toBe('"line 50","é"');
  });

  test('reports a line over the length limit by number, whether it spans read chunks or not', async () => {
    const long = 'x'.repeat(100);
    for (const chunkBytes of [7, 1024]) {
      const text = `a,b\n${long}\nc,d\n${long}`;
      const { lines, oversized } = await readAll(Buffer.from(text), chunkBytes, 50);
      expect(lines, `chunk ${chunkBytes}`).toEqual(['a,b', '', 'c,d', '']);
      expect(oversized, `chunk ${chunkBytes}`).toEqual([2, 4]);
    }
  });
});
