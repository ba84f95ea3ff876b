// `geo lookup` over a stream: one query a line in, one answer a line out, in order, written in
// large chunks with backpressure so 100,000 queries from a pipe cost little more than the lookups.
import type { Readable, Writable } from 'node:stream';
import type { GeoLookup } from './geo-lookup.js';

/** How answers are written: `query<TAB>codes` (space-separated, `-` for none) or a JSON object a line. */
export type LookupFormat = 'text' | 'json';

/** One answer line. */
export function formatAnswer(query: string, codes: readonly string[], format: LookupFormat): string {
  if (format === 'json') return `${JSON.stringify({ query, codes })}\n`;
  return `${query}\t${codes.length > 0 ? codes.join(' ') : '-'}\n`;
}

const FLUSH_AT = 64 * 1024;

function write(out: Writable, text: string): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      out.off('drain', onDrain);
      reject(err);
    };
    out.once('drain', onDrain);
    out.once('error', onError);
  });
}

/** Answers every non-empty line of `input` (trimmed; CRLF accepted); resolves with the count answered. */
export function lookupLines(
  lookup: GeoLookup,
  input: Readable,
  output: Writable,
  format: LookupFormat,
): Promise<number> {
  return answerLines(input, output, (query) => formatAnswer(query, lookup.lookup(query), format));
}

/**
 * Writes `answer(query)` for every non-empty line of `input` (trimmed; CRLF accepted), in order,
 * in large chunks with backpressure; resolves with the count answered.
 */
export async function answerLines(
  input: Readable,
  output: Writable,
  answerOf: (query: string) => string,
): Promise<number> {
  let rest = '';
  let pending = '';
  let answered = 0;
  const answer = (line: string) => {
    const query = line.trim();
    if (query === '') return;
    pending += answerOf(query);
    answered++;
  };
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      answer(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    if (pending.length >= FLUSH_AT) {
      const p = write(output, pending);
      pending = '';
      if (p) await p;
    }
  }
  answer(rest);
  if (pending !== '') await write(output, pending);
  return answered;
}
