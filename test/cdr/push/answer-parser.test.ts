// Property tests of the push sender's answer parser: an answer gives the same result however the
// connection splits its bytes, the body kept is the real body's start, and arbitrary bytes never
// throw (they give an answer, an error or a wait for more).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AnswerParser, type ParseStep } from '../../../src/cdr/push/answer-parser.js';

const KEEP = 500;

/** Feeds `bytes` cut at `cuts` (offsets), then the end of the connection; the first result wins. */
function parse(bytes: Buffer, cuts: number[], ended = true): ParseStep {
  const p = new AnswerParser(KEEP);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...points, bytes.length]) {
    if (to <= from) continue;
    const step = p.push(bytes.subarray(from, to));
    if (step.answer || step.error) return step;
    from = to;
  }
  return ended ? p.end() : {};
}

// Short bodies, and long ones around and past the 500 characters kept.
const bodyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 480, maxLength: 900 }),
);
const status = fc.integer({ min: 200, max: 599 }).filter((s) => s !== 204 && s !== 304);

/** An answer with its framing: content-length, chunked (random chunk sizes) or close-delimited. */
const answer = fc
  .record({
    status,
    body: bodyText,
    framing: fc.constantFrom('length', 'chunked', 'close'),
    chunkSizes: fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
    interim: fc.boolean(),
    upperCase: fc.boolean(),
  })
  .map(({ status, body, framing, chunkSizes, interim, upperCase }) => {
    const bytes = Buffer.from(body, 'utf8');
    const name = (n: string) => (upperCase ? n.toUpperCase() : n);
    let head = '';
    if (interim) head += 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n';
    head += `HTTP/1.1 ${status} Whatever\r\n${name('content-type')}: text/plain\r\n`;
    let payload: Buffer;
    if (framing === 'length') {
      head += `${name('content-length')}: ${bytes.length}\r\n`;
      payload = bytes;
    } else if (framing === 'chunked') {
      head += `${name('transfer-encoding')}: chunked\r\n`;
      const parts: Buffer[] = [];
      let at = 0;
      for (let i = 0; at < bytes.length; i++) {
        const n = Math.min(chunkSizes[i % chunkSizes.length] as number, bytes.length - at);
        parts.push(
          Buffer.from(`${n.toString(16)};x=${i}\r\n`),
          bytes.subarray(at, at + n),
          Buffer.from('\r\n'),
        );
        at += n;
      }
      parts.push(Buffer.from('0\r\nX-Trailer: t\r\n\r\n'));
      payload = Buffer.concat(parts);
    } else {
      head += `${name('connection')}: close\r\n`;
      payload = bytes;
    }
    return {
      status,
      body,
      framing,
      wire: Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]),
    };
  });

describe('answer parser', () => {
  test('an answer reads the same however its bytes are split, with the body start kept', () => {
    fc.assert(
      fc.property(answer, fc.array(fc.nat(), { maxLength: 12 }), (a, cuts) => {
        const whole = parse(a.wire, []);
        const split = parse(a.wire, cuts);
        expect(split).toEqual(whole);
        expect(whole.error).toBeUndefined();
        expect(whole.answer).toMatchObject({
          status: a.status,
          keepAlive: a.framing !== 'close',
          extra: false,
        });
        expect(whole.answer?.body).toBe(a.body.slice(0, KEEP));
      }),
      { numRuns: 400 },
    );
  });

  test('a framed answer completes without waiting for the connection to end', () => {
    fc.assert(
      fc.property(
        answer.filter((a) => a.framing !== 'close'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (a, cuts) => {
          expect(parse(a.wire, cuts, false).answer?.status).toBe(a.status);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a framed answer cut short never completes, even when the connection ends', () => {
    fc.assert(
      fc.property(
        answer.filter((a) => a.framing !== 'close'),
        fc.nat(),
        (a, at) => {
          const cut = a.wire.subarray(0, at % a.wire.length);
          const step = parse(cut, []);
          expect(step.answer).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  test('bytes after a complete answer are flagged, so the connection is not reused', () => {
    const wire = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n');
    expect(parse(wire, [])).toMatchObject({ answer: { status: 200, body: 'ok', extra: true } });
  });

  test('arbitrary bytes never throw: an answer, an error naming what was wrong, or a wait', () => {
    const junk = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u)),
      // Near misses of a real answer: a valid one with a few bytes overwritten.
      fc
        .tuple(answer, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }))
        .map(([a, edits]) => {
          const b = Buffer.from(a.wire);
          for (const [at, v] of edits) b[at % b.length] = v;
          return b;
        }),
    );
    fc.assert(
      fc.property(junk, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        const step = parse(bytes, cuts);
        if (step.error !== undefined) expect(step.error).toMatch(/answer|chunk|Switching/);
        if (step.answer) expect(step.answer.status).toBeGreaterThanOrEqual(200);
      }),
      { numRuns: 500 },
    );
  });

  test('headers past the limit are an error, however slowly they arrive', () => {
    const p = new AnswerParser(KEEP);
    let step: ParseStep = p.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    const line = Buffer.from(`X-Filler: ${'f'.repeat(1000)}\r\n`);
    for (let i = 0; i < 100 && !step.error; i++) step = p.push(line);
    expect(step.error).toMatch(/answer headers longer than 65536 bytes/);
  });
});
