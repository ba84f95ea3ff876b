// Parses a text IP list (one CIDR or address per line; `#`, `//` and `/*` start a comment) into a
// CidrSet, reporting the first bad line as file:line. Pure: text in, set out.

import { GeoError } from '../errors.js';
import { CidrSet } from './cidr-set.js';

/** Adds every network of a text list to `into` (a new set by default) and returns it. */
export function parseIpText(text: string, file: string, into: CidrSet = new CidrSet()): CidrSet {
  let lineNo = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let eol = text.indexOf('\n', pos);
    if (eol === -1) eol = n;
    lineNo++;
    let from = pos;
    let to = eol;
    pos = eol + 1;
    // Cut comments, then trim spaces, tabs and CR, by index (no substring on the common path).
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (
        c === 35 ||
        (c === 47 && k + 1 < to && (text.charCodeAt(k + 1) === 47 || text.charCodeAt(k + 1) === 42))
      ) {
        to = k;
        break;
      }
    }
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    if (from === to) continue;
    if (!into.addText(text, from, to)) {
      throw new GeoError(
        'ip_syntax',
        `${file}:${lineNo}: invalid CIDR or IP address "${text.slice(from, to)}"`,
      );
    }
  }
  return into;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;
}
