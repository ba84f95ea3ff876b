// splitText at the part boundaries of 3GPP TS 23.040 / 23.038: 160 septets or 70 UCS-2 units
// alone, 153/67 after an 8-bit and 152/66 after a 16-bit concatenation header, escapes and
// surrogate pairs never cut.

import { describe, expect, it } from 'vitest';
import { splitText } from '../../../src/sms/pdu/index.js';

const shape = (text: string, options?: Parameters<typeof splitText>[1]) =>
  splitText(text, options).map((p) => [
    p.encoding,
    p.text.length,
    p.units,
    p.concat?.total,
    p.concat?.sequence,
  ]);

describe('splitText', () => {
  it('keeps up to 160 GSM-7 septets in one part', () => {
    expect(shape('a'.repeat(160))).toEqual([['gsm7', 160, 160, undefined, undefined]]);
    expect(shape(`${'a'.repeat(158)}€`)).toEqual([['gsm7', 159, 160, undefined, undefined]]);
  });

  it('cuts 161 septets into 153 + 8', () => {
    expect(shape('a'.repeat(161))).toEqual([
      ['gsm7', 153, 153, 2, 1],
      ['gsm7', 8, 8, 2, 2],
    ]);
  });

  it('never cuts an escape sequence: the euro sign moves whole to the next part', () => {
    const parts = splitText(`${'a'.repeat(152)}€${'b'.repeat(10)}`);
    expect(parts.map((p) => [p.text, p.units])).toEqual([
      ['a'.repeat(152), 152],
      [`€${'b'.repeat(10)}`, 12],
    ]);
  });

  it('uses 152 septets per part after a 16-bit reference', () => {
    expect(shape('a'.repeat(305), { referenceBits: 16, reference: 0x1234 })).toEqual([
      ['gsm7', 152, 152, 3, 1],
      ['gsm7', 152, 152, 3, 2],
      ['gsm7', 1, 1, 3, 3],
    ]);
    expect(splitText('a'.repeat(161), { referenceBits: 16, reference: 0x1234 })[0]?.concat).toEqual({
      reference: 0x1234,
      total: 2,
      sequence: 1,
      referenceBits: 16,
    });
  });

  it('switches to UCS-2 for a single character outside GSM-7, 70 units per single part', () => {
    expect(shape(`${'a'.repeat(69)}ж`)).toEqual([['ucs2', 70, 140, undefined, undefined]]);
    expect(shape(`${'a'.repeat(70)}ж`)).toEqual([
      ['ucs2', 67, 134, 2, 1],
      ['ucs2', 4, 8, 2, 2],
    ]);
  });

  it('never cuts a surrogate pair: the emoji moves whole to the next part', () => {
    const text = `${'ж'.repeat(66)}😀${'ж'.repeat(5)}`;
    expect(splitText(text).map((p) => p.text)).toEqual(['ж'.repeat(66), `😀${'ж'.repeat(5)}`]);
    expect(splitText(text, { referenceBits: 16 }).map((p) => p.text)).toEqual([
      'ж'.repeat(66),
      `😀${'ж'.repeat(5)}`,
    ]);
    const shifted = `${'ж'.repeat(65)}😀${'ж'.repeat(5)}`;
    expect(splitText(shifted, { referenceBits: 16 }).map((p) => p.text.length)).toEqual([65, 7]);
    expect(splitText(shifted).map((p) => p.text.length)).toEqual([67, 5]);
  });

  it('treats characters that only look like GSM-7 (ç, curly quotes) as UCS-2, so nothing is altered', () => {
    expect(shape('ça')[0]?.[0]).toBe('ucs2');
    expect(shape('Ça')[0]?.[0]).toBe('gsm7');
    expect(shape('“hi”')[0]?.[0]).toBe('ucs2');
  });

  it('forces UCS-2 when asked and plans an empty text as one empty part', () => {
    expect(shape('abc', { forceUcs2: true })).toEqual([['ucs2', 3, 6, undefined, undefined]]);
    expect(shape('')).toEqual([['gsm7', 0, 0, undefined, undefined]]);
  });
});
