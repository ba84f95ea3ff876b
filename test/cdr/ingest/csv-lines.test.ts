import { describe, expect, test } from 'vitest';
import { parseCsvLines } from '../../../src/cdr/ingest/csv-lines.js';

describe('parseCsvLines', () => {
  test('reads quoted fields with doubled quotes, unquoted empties and blank lines', () => {
    const out = parseCsvLines(10, ['"","""Dave Evans"" <4004>",,0', '', '"a,b",2']);
    expect(out).toEqual([
      { line: 10, ok: true, fields: ['', '"Dave Evans" <4004>', '', '0'] },
      { line: 12, ok: true, fields: ['a,b', '2'] },
    ]);
  });

  test('keeps a line with an unclosed quote from swallowing the lines after it', () => {
    const out = parseCsvLines(1, ['"a","b"', '"sales","4001","20', '"c","d"']);
    expect(out[0]).toEqual({ line: 1, ok: true, fields: ['a', 'b'] });
    expect(out[1]).toMatchObject({ line: 2, ok: false, reason: expect.stringMatching(/not closed/) });
    expect(out[2]).toEqual({ line: 3, ok: true, fields: ['c', 'd'] });
  });

  test('reports a stray quote inside an unquoted field on its own line only', () => {
    const out = parseCsvLines(5, ['x,y', 'ab"c,"d', '"ok","fine"']);
    expect(out.map((r) => [r.line, r.ok])).toEqual([
      [5, true],
      [6, false],
      [7, true],
    ]);
    expect(out[1]).toMatchObject({ reason: expect.stringMatching(/^malformed CSV: Invalid Opening Quote/) });
    expect(out[2]).toEqual({ line: 7, ok: true, fields: ['ok', 'fine'] });
  });
});
