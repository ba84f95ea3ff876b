// Run by test/geo/ip-core.test.ts under `node --jitless` (no WebAssembly): builds an IP matcher
// from the file given and prints whether the core was there and what 1.0.1.1 and 10.1.2.3 match.

import { GeoDat, loadMatcher } from '../../../src/geo/index.js';
import { ipCoreAvailable } from '../../../src/geo/ip/ip-core.js';

const dat = GeoDat.open(process.argv[2] as string);
const { matcher } = loadMatcher(dat);
console.log(
  JSON.stringify({
    core: ipCoreAvailable(),
    a: matcher.matchCodes('1.0.1.1'),
    b: matcher.matchCodes('10.1.2.3'),
  }),
);
