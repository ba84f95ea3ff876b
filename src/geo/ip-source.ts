// Parses a text IP list (one CIDR or address per line; `#`, `//` and `/*` start a comment) into a
// CidrSet, reporting the first bad line as file:line. Pure: text in, set out.
import { CidrSet } from './cidr-set.js';
import { GeoError } from './errors.js';
import { parseCidr } from './ip-address.js';

/** Adds every network of a text list to `into` (a new set by default) and returns it. */
export function parseIpText(text: string, file: string, into: CidrSet = new CidrSet()): CidrSet {
  let lineNo = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let eol = text.indexOf('\n', pos);
    if (eol === -1) eol = n;
    lineNo++;
    let line = text.slice(pos, eol);
    pos = eol + 1;
    for (const marker of ['#', '//', '/*']) {
      const at = line.indexOf(marker);
      if (at !== -1) line = line.slice(0, at);
    }
    line = line.trim();
    if (line === '') continue;
    const cidr = parseCidr(line);
    if (!cidr) {
      throw new GeoError('ip_syntax', `${file}:${lineNo}: invalid CIDR or IP address "${line}"`);
    }
    into.add(cidr);
  }
  return into;
}
