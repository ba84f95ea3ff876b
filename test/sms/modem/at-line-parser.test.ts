import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AtFrame, AtLineParser } from '../../../src/sms/modem/index.js';

const CDS_PDU = '07911326040000F006490B911326880736F4111011719551401110117195714000';

function parseAll(chunks: readonly (string | Buffer)[]): AtFrame[] {
  const parser = new AtLineParser();
  return chunks.flatMap((c) => parser.push(typeof c === 'string' ? Buffer.from(c, 'latin1') : c));
}

describe('AtLineParser', () => {
  it('classifies final results, information lines and the +CMS/+CME error numbers', () => {
    const frames = parseAll([
      '\r\n+CSQ: 21,99\r\n\r\nOK\r\n\r\nERROR\r\n\r\n+CMS ERROR: 322\r\n\r\n+CME ERROR: 14\r\n\r\n+CME ERROR: SIM busy\r\n',
    ]);
    expect(frames).toEqual([
      { kind: 'line', text: '+CSQ: 21,99' },
      { kind: 'final', result: { status: 'ok' }, text: 'OK' },
      { kind: 'final', result: { status: 'error', text: 'ERROR' }, text: 'ERROR' },
      { kind: 'final', result: { status: 'cms_error', code: 322, text: '322' }, text: '+CMS ERROR: 322' },
      { kind: 'final', result: { status: 'cme_error', code: 14, text: '14' }, text: '+CME ERROR: 14' },
      {
        kind: 'final',
        result: { status: 'cme_error', code: 14, text: 'SIM busy' },
        text: '+CME ERROR: SIM busy',
      },
    ]);
  });

  it('emits the "> " prompt without waiting for a line end', () => {
    const parser = new AtLineParser();
    expect(parser.push(Buffer.from('\r\n>'))).toEqual([]);
    expect(parser.push(Buffer.from(' '))).toEqual([{ kind: 'prompt' }]);
  });

  it('recognises +CMTI, +CDSI, RING and the two-line +CDS with its PDU', () => {
    const frames = parseAll([
      `\r\n+CMTI: "SM",3\r\n\r\n+CDSI: "SM",7\r\nRING\r\n\r\n+CDS: 25\r\n${CDS_PDU}\r\n`,
    ]);
    expect(frames.map((f) => (f.kind === 'urc' ? f.urc : f))).toEqual([
      { type: 'cmti', storage: 'SM', index: 3 },
      { type: 'cdsi', storage: 'SM', index: 7 },
      { type: 'ring' },
      { type: 'cds', length: 25, pdu: CDS_PDU },
    ]);
  });

  it('marks vendor noise as noise, not as information lines', () => {
    const noise = [
      '^RSSI: 17',
      '^BOOT: 1,0,0,0',
      'SMS DONE',
      'PB DONE',
      '+QIND: "csq",21,99',
      'RDY',
      '^SYSSTART',
    ];
    const frames = parseAll(noise.map((n) => `\r\n${n}\r\n`));
    expect(frames).toEqual(noise.map((text) => ({ kind: 'noise', text })));
  });

  it('discards a binary garbage line and keeps parsing after it', () => {
    const garbage = Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x07]);
    const frames = parseAll([garbage, '\r\nOK\r\n']);
    expect(frames).toEqual([
      { kind: 'discarded', bytes: garbage, reason: 'binary' },
      { kind: 'final', result: { status: 'ok' }, text: 'OK' },
    ]);
  });

  it('discards a +CDS header whose PDU line is not hex and parses that line normally', () => {
    const frames = parseAll(['\r\n+CDS: 25\r\nOK\r\n']);
    expect(frames).toEqual([
      { kind: 'discarded', bytes: Buffer.from('+CDS: 25'), reason: 'orphan_pdu_header' },
      { kind: 'final', result: { status: 'ok' }, text: 'OK' },
    ]);
  });

  it('discards a run longer than the line limit instead of growing without bound', () => {
    const parser = new AtLineParser({ maxLineLength: 16 });
    const frames = parser.push(Buffer.from('A'.repeat(40)));
    expect(frames).toEqual([{ kind: 'discarded', bytes: Buffer.from('A'.repeat(40)), reason: 'too_long' }]);
    expect(parser.push(Buffer.from('\r\nOK\r\n'))).toEqual([
      { kind: 'final', result: { status: 'ok' }, text: 'OK' },
    ]);
  });

  it('gives the same frames however the bytes are chunked', () => {
    const transcript = Buffer.concat([
      Buffer.from(`AT+CMGL=4\r\r\n+CMGL: 1,0,,25\r\n${CDS_PDU}\r\n^RSSI: 3\r\n\r\nOK\r\n`, 'latin1'),
      Buffer.from([0x00, 0xff, 0x0d, 0x0a]),
      Buffer.from(
        `\r\n> \r\n+CMGS: 12\r\n\r\nOK\r\n\r\n+CDS: 25\r\n${CDS_PDU}\r\n+CMTI: "SM",2\r\n`,
        'latin1',
      ),
    ]);
    const whole = parseAll([transcript]);
    expect(whole.map((f) => f.kind)).toEqual([
      'line',
      'line',
      'line',
      'noise',
      'final',
      'discarded',
      'prompt',
      'line',
      'final',
      'urc',
      'urc',
    ]);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: transcript.length - 1 }), { maxLength: 30 }),
        (cuts) => {
          const sorted = [...cuts].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let at = 0;
          for (const cut of sorted) {
            chunks.push(transcript.subarray(at, cut));
            at = cut;
          }
          chunks.push(transcript.subarray(at));
          expect(parseAll(chunks)).toEqual(whole);
        },
      ),
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (chunks) => {
        const parser = new AtLineParser({ maxLineLength: 32 });
        for (const c of chunks) parser.push(c);
      }),
    );
  });
});
