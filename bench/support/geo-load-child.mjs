// Our side of the v2ray side-by-side (bench/support/geo-side-by-side.ts), run as its own process
// on the built package (dist/, as a program embedding the matchers loads it: the .dat reader and
// the matcher loader, not the CLI): opens a geosite.dat or geoip.dat, builds one matcher over
// every list (or --codes), and prints one JSON line with the fields bench/v2ray-peer/main.go
// prints: build time, resident memory after the build and its peak (both from /proc/self/status),
// and the median ns of a which-all lookup over a file of queries (addresses parsed up front, as
// v2ray's router receives them), timed after a warm-up, in rounds of at least 100 ms.
// Run: node bench/support/geo-load-child.mjs site|ip FILE [--codes a,b] [--queries FILE] [--rounds N]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GeoDat } from '../../dist/geo/dat/geo-dat.js';
import { loadMatcher } from '../../dist/geo/dat/matcher-loader.js';
import { parseDotted, parseIPv6Words } from '../../dist/geo/ip/ipv6-words.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    codes: { type: 'string' },
    queries: { type: 'string' },
    rounds: { type: 'string', default: '5' },
  },
});
const [kind, file] = positionals;
const statusKb = (field) => {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : -1;
};

const start = performance.now();
const dat = GeoDat.open(file);
const loaded = loadMatcher(dat, values.codes ? values.codes.split(',') : undefined);
dat.close();
const buildMs = performance.now() - start;
if (loaded.kind !== kind) throw new Error(`${file} holds ${loaded.kind} lists, not ${kind}`);
const report = { kind, lists: loaded.matcher.size, buildMs, rssKb: statusKb('VmRSS'), peakRssKb: 0 };

if (values.queries) {
  const texts = readFileSync(values.queries, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const m = loaded.matcher;
  const out = new Uint32Array(m.size);
  let pass;
  if (kind === 'site') {
    pass = () => {
      let hits = 0;
      for (let k = 0; k < texts.length; k++) hits += m.match(texts[k], out);
      return hits;
    };
  } else {
    const v4 = [];
    const v6 = new Uint32Array(4 * texts.length);
    let v6Count = 0;
    for (const t of texts) {
      if (t.includes(':')) {
        if (!parseIPv6Words(t, 0, t.length, v6, v6Count * 4)) throw new Error(`not an address: ${t}`);
        v6Count++;
      } else {
        const v = parseDotted(t, 0, t.length);
        if (v < 0) throw new Error(`not an address: ${t}`);
        v4.push(v);
      }
    }
    // As int32 bit patterns (IpMatcher.matchV4 takes either form; this one is never boxed).
    const v4s = new Int32Array(Uint32Array.from(v4).buffer);
    pass = () => {
      let hits = 0;
      for (let k = 0; k < v4s.length; k++) hits += m.matchV4(v4s[k], out);
      for (let k = 0; k < v6Count; k++) hits += m.matchV6(v6, k * 4, out);
      return hits;
    };
  }
  // Passes for 300 ms first (V8 compiles the lookup path in the first few), then rounds that each
  // repeat passes for 100 ms; the same scheme as bench/v2ray-peer's.
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  for (const warm = now(); now() - warm < 300; ) report.hits = pass();
  const times = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const t = now();
    let passes = 0;
    while (now() - t < 100) {
      report.hits = pass();
      passes++;
    }
    times.push(((now() - t) * 1e6) / (texts.length * passes));
  }
  times.sort((a, b) => a - b);
  report.queries = texts.length;
  report.nsPerLookup = times[Math.floor(times.length / 2)];
}
report.peakRssKb = statusKb('VmHWM');
console.log(JSON.stringify(report));
