// Geo matcher benchmark: lookups per second on the full upstream dlc.dat (1536 lists) and on the
// 252-list v2fly geoip, each against baselines run in the same process, plus an allocation check:
// heap growth and garbage collections during a million lookups with a reused result buffer.
// Run: node bin/run-ts.js bench/geo-match.ts   (needs ../shared/corpora beside the repository)
// Exits 1 when a million lookups grow the heap by a byte per lookup or cause a garbage collection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RE2JS } from 're2js';
import {
  buildIpDat,
  DomainType,
  GeoDat,
  type IpList,
  IpMatcher,
  normalizeDomain,
  type SiteList,
  SiteMatcher,
} from '../src/geo/index.js';
import { DomainTable, hashStep } from '../src/geo/site/domain-table.js';
import { compileSiteRegex } from '../src/geo/site/site-regex.js';
import { seededRandom } from '../src/shared/seeded-random.js';
import { buildOurs, buildPeer, median, sideBySide } from './support/geo-side-by-side.js';

const corpora = resolve(import.meta.dirname, '../../shared/corpora/geo');
const dlcPath = resolve(corpora, 'upstream/dlc.dat');
const ipDir = resolve(corpora, 'cidr/v2fly-geoip/text');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const random = seededRandom(2026);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

/** Lookups per second of one round of fn over queries, at least `ms` milliseconds long. */
function oneRound<Q>(queries: readonly Q[], fn: (q: Q) => unknown, ms: number): number {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < queries.length; i++) fn(queries[i] as Q);
    n += queries.length;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return (n / elapsed) * 1000;
}

/**
 * Medians of lookups per second of ours and of a baseline over 5 alternating rounds (ours,
 * baseline, baseline, ours, ...), each round at least `ms` milliseconds.
 */
function rates<Q, B>(
  queries: readonly Q[],
  ours: (q: Q) => unknown,
  baseQueries: readonly B[],
  baseline: (q: B) => unknown,
  ms = 400,
): [number, number] {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < 5; round++) {
    if (round % 2 === 0) {
      a.push(oneRound(queries, ours, ms));
      b.push(oneRound(baseQueries, baseline, ms));
    } else {
      b.push(oneRound(baseQueries, baseline, ms));
      a.push(oneRound(queries, ours, ms));
    }
  }
  return [median(a), median(b)];
}

/** Heap growth and GC count over a million calls, after a warm-up; GC forced before and after. */
async function allocation<Q>(
  queries: readonly Q[],
  fn: (q: Q) => unknown,
): Promise<{ kb: number; gcs: number }> {
  for (let i = 0; i < 200_000; i++) fn(queries[i % queries.length] as Q);
  gc();
  let gcs = 0;
  const observer = new PerformanceObserver((list) => {
    gcs += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) fn(queries[i % queries.length] as Q);
  const after = process.memoryUsage().heapUsed;
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  gc();
  return { kb: (after - before) / 1024, gcs };
}

const rows: string[] = [];
const failures: string[] = [];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
function row(name: string, [ours, baseline]: [number, number], baselineName: string): void {
  rows.push(
    `| ${name} | ${fmt(ours)}/s | ${baselineName}: ${fmt(baseline)}/s | ${(ours / baseline).toFixed(2)} |`,
  );
}

// ---- Site: the whole upstream dlc.dat.
const dat = GeoDat.open(dlcPath);
const siteLists: SiteList[] = dat.entries.map((e) => dat.readSite(e));
dat.close();
let t = performance.now();
const site = SiteMatcher.compile(siteLists);
const siteCompileMs = performance.now() - t;
const out = new Uint32Array(site.size);

// A router's mix: names under listed domains (with subdomains), unlisted names, a few in upper
// case or with the trailing dot of a DNS name, a few of the shapes the regexp rules target.
const rules = siteLists.flatMap((l) => l.rules);
const listed = rules
  .filter((r) => r.type === DomainType.RootDomain || r.type === DomainType.Full)
  .map((r) => r.value);
const subs = ['www', 'api', 'cdn', 'static', 'img1', 'm', 'login', 'edge-42'];
const words = ['mail', 'shop', 'cloud', 'files', 'portal', 'news', 'games', 'intranet', 'vpn'];
const tlds = ['com', 'net', 'org', 'de', 'io', 'co.uk', 'fr', 'xyz'];
const siteQueries: string[] = [];
for (let i = 0; i < 20_000; i++) {
  const r = random();
  if (r < 0.35) siteQueries.push(`${pick(subs)}.${pick(listed)}`);
  else if (r < 0.5) siteQueries.push(pick(listed));
  else if (r < 0.9)
    siteQueries.push(`${pick(subs)}.${pick(words)}${Math.floor(random() * 1000)}.${pick(tlds)}`);
  else if (r < 0.95) siteQueries.push(`${pick(subs)}.${pick(listed)}.`.toUpperCase());
  else
    siteQueries.push(`${pick(['javdb', '18tv', 'fulibl', 'x'])}${Math.floor(random() * 99)}.${pick(tlds)}`);
}
const siteHits = siteQueries.filter((q) => site.match(q, out) > 0).length;

// Baseline 1: a linear scan of every rule (re2js for regexps), as the tests' reference does.
const prepared = siteLists.map((l) =>
  l.rules.map((r) => ({
    type: r.type,
    value: r.value,
    dotted: `.${r.value}`,
    re: r.type === DomainType.Regex ? RE2JS.compile(r.value) : undefined,
  })),
);
const linearScan = (q: string): number => {
  const name = normalizeDomain(q);
  let n = 0;
  for (const list of prepared) {
    for (const r of list) {
      const hit =
        r.type === DomainType.Full
          ? name === r.value
          : r.type === DomainType.RootDomain
            ? name === r.value || name.endsWith(r.dotted)
            : r.type === DomainType.Plain
              ? name.includes(r.value)
              : (r.re as RE2JS).test(name);
      if (hit) {
        n++;
        break;
      }
    }
  }
  return n;
};

// Baseline 2: the obvious indexed matcher: a Map from each name to its lists, probed with every
// label suffix cut out by slice(), and every regexp (native RegExp where safe) run on every query.
const byName = new Map<string, number[]>();
const regexList: { test: (s: string) => boolean; lists: number[] }[] = [];
const regexIndex = new Map<string, number>();
siteLists.forEach((l, k) => {
  for (const r of l.rules) {
    if (r.type === DomainType.Regex) {
      let id = regexIndex.get(r.value);
      if (id === undefined) {
        id = regexList.length;
        regexIndex.set(r.value, id);
        regexList.push({ test: compileSiteRegex(r.value).test, lists: [] });
      }
      (regexList[id] as { lists: number[] }).lists.push(k);
    } else if (r.type !== DomainType.Plain) {
      const key = `${r.type === DomainType.Full ? '=' : '.'}${r.value}`;
      const lists = byName.get(key) ?? [];
      lists.push(k);
      byName.set(key, lists);
    }
  }
});
const seen = new Uint8Array(siteLists.length);
const naive = (q: string): number => {
  const name = normalizeDomain(q);
  const hits: number[] = [];
  const add = (ls: number[] | undefined) => {
    if (ls)
      for (const l of ls)
        if (!seen[l]) {
          seen[l] = 1;
          hits.push(l);
        }
  };
  add(byName.get(`=${name}`));
  let at = 0;
  for (;;) {
    add(byName.get(`.${name.slice(at)}`));
    const dot = name.indexOf('.', at);
    if (dot === -1) break;
    at = dot + 1;
  }
  for (const r of regexList) if (r.test(name)) add(r.lists);
  for (const l of hits) seen[l] = 0;
  return hits.length;
};

// Baseline 3: the floor: one JS Set probe of the query as given (exact names only, no lists).
const exactNames = new Set(listed);
const setProbe = (q: string) => exactNames.has(q);

const siteMatch = (q: string) => site.match(q, out);
row(
  'site match, dlc.dat 1536 lists (into a reused buffer)',
  rates(siteQueries, siteMatch, siteQueries.slice(0, 300), linearScan, 400),
  'linear scan of 109,236 rules',
);
row(
  'site match, same',
  rates(siteQueries, siteMatch, siteQueries, naive),
  'Map of names + slice() per label + every regexp',
);
row(
  'site match, same',
  rates(siteQueries, siteMatch, siteQueries, setProbe),
  'one Set.has(query) (exact name only)',
);
// The floor of the issue: one hash probe per label (the label walk alone, into a table of every
// full and domain name, no lists, keywords or regexps).
const floorTable = new DomainTable();
for (const name of listed) floorTable.add(name.toLowerCase());
const probePerLabel = (q: string): number => {
  const name = normalizeDomain(q);
  const end = name.length;
  let hash = 0;
  let found = 0;
  for (let k = end; k >= 0; k--) {
    if (k < end) hash = hashStep(hash, name.charCodeAt(k));
    if (k > 0 && name.charCodeAt(k - 1) !== 46) continue;
    if (floorTable.find(hash, name, k, end) !== -1) found++;
  }
  return found;
};
const floorRates = rates(siteQueries, siteMatch, siteQueries, probePerLabel);
row('site match (which-all), same', floorRates, 'the floor: one hash probe per label');
const floorRatio = floorRates[1] / floorRates[0];
if (floorRatio > 1.5)
  failures.push(`site which-all is ${floorRatio.toFixed(2)}x the one-probe-per-label floor (target <= 1.5x)`);
const siteAlloc = await allocation(siteQueries, (q) => site.match(q, out));
// The documented no-allocation case: names already lower case without a trailing dot.
const plainQueries = siteQueries.filter((q) => normalizeDomain(q) === q);
const sitePlainAlloc = await allocation(plainQueries, (q) => site.match(q, out));
const codesAlloc = await allocation(siteQueries, (q) => site.matchCodes(q));

// ---- IP: the 252 v2fly lists.
t = performance.now();
const ipBytes = buildIpDat([ipDir]).bytes;
const ipDat = GeoDat.fromBytes(ipBytes);
const ipLists: IpList[] = ipDat.entries.map((e) => ipDat.readIp(e));
const ipBuildMs = performance.now() - t;
t = performance.now();
const ip = IpMatcher.compile(ipLists);
const ipCompileMs = performance.now() - t;
const ipOut = new Uint32Array(ip.size);
const v4Text = (v: number) => `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
const v4Numbers: number[] = [];
const ipQueries: string[] = [];
const listedV4 = ipLists.flatMap((l) => l.cidrs.filter((c) => c.ip.length === 4));
for (let i = 0; i < 20_000; i++) {
  const r = random();
  if (r < 0.6) {
    // Inside a listed network (most traffic goes to allocated space).
    const c = pick(listedV4);
    const base =
      ((c.ip[0] as number) << 24) |
      ((c.ip[1] as number) << 16) |
      ((c.ip[2] as number) << 8) |
      (c.ip[3] as number);
    const v = (base + Math.floor(random() * 2 ** (32 - c.prefix))) >>> 0;
    v4Numbers.push(v);
    ipQueries.push(v4Text(v));
  } else if (r < 0.75) {
    const v = Math.floor(random() * 2 ** 32);
    v4Numbers.push(v);
    ipQueries.push(v4Text(v));
  } else {
    const g = () => Math.floor(random() * 65536).toString(16);
    ipQueries.push(
      `2${Math.floor(random() * 4096)
        .toString(16)
        .padStart(3, '0')}:${g()}:${g()}::${g()}`,
    );
  }
}
const ipHits = ipQueries.filter((q) => ip.match(q, ipOut) > 0).length;

// Baselines: one sorted range array per list with a binary search in each (v2ray's shape), a
// linear scan of every IPv4 range, and the floor of one Set.has of the address text.
const perList = ipLists.map((l) => {
  const v4 = l.cidrs.filter((c) => c.ip.length === 4);
  const starts = new Float64Array(v4.length);
  const ends = new Float64Array(v4.length);
  v4.forEach((c, k) => {
    const s =
      (c.ip[0] as number) * 2 ** 24 +
      (((c.ip[1] as number) << 16) | ((c.ip[2] as number) << 8) | (c.ip[3] as number));
    starts[k] = s;
    ends[k] = s + 2 ** (32 - c.prefix) - 1;
  });
  return { starts, ends };
});
const perListSearch = (v: number): number => {
  let n = 0;
  for (const { starts, ends } of perList) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if ((starts[mid] as number) > v) hi = mid - 1;
      else if ((ends[mid] as number) < v) lo = mid + 1;
      else {
        n++;
        break;
      }
    }
  }
  return n;
};
const linearV4 = (v: number): number => {
  let n = 0;
  for (const { starts, ends } of perList) {
    for (let k = 0; k < starts.length; k++) {
      if ((starts[k] as number) <= v && v <= (ends[k] as number)) {
        n++;
        break;
      }
    }
  }
  return n;
};
const addressSet = new Set(ipQueries.slice(0, 5000));
const ipText = (q: string) => ip.match(q, ipOut);
const ipV4 = (v: number) => ip.matchV4(v, ipOut);
row(
  'IP match, text (v4 75%, v6 25%), 252 lists',
  rates(ipQueries, ipText, ipQueries, (q) => addressSet.has(q)),
  'one Set.has(address text)',
);
row(
  'IP matchV4, uint32, 252 lists',
  rates(v4Numbers, ipV4, v4Numbers, perListSearch),
  'binary search in each of 252 lists',
);
row(
  'IP matchV4, same',
  rates(v4Numbers, ipV4, v4Numbers.slice(0, 200), linearV4, 400),
  'linear scan of every IPv4 range',
);
const ipAlloc = await allocation(ipQueries, (q) => ip.match(q, ipOut));
const ipAllocV4 = await allocation(v4Numbers, (v) => ip.matchV4(v, ipOut));
const ipCodesAlloc = await allocation(ipQueries, (q) => ip.matchCodes(q));

// ---- Side by side with v2ray 4.34: which-all lookups (every list asked) over the same files and
// queries, a fresh process per round on each side, alternating; medians of ns per lookup.
const sideRows: string[] = [];
const peer = buildPeer();
if ('missing' in peer) {
  console.log(`v2ray side by side skipped: ${peer.missing}`);
  if (process.env.CI) failures.push('v2ray side by side');
} else {
  buildOurs();
  const dir = mkdtempSync(join(tmpdir(), 'branchgate-geo-match-'));
  const ipFile = join(dir, 'geoip-252.dat');
  writeFileSync(ipFile, ipBytes);
  const siteQ = join(dir, 'site.txt');
  // v2ray's ApplyDomain neither lower-cases nor drops a trailing dot: give both sides the
  // normalized names, so both answer the same question.
  writeFileSync(siteQ, `${siteQueries.map(normalizeDomain).join('\n')}\n`);
  const ipQ = join(dir, 'ip.txt');
  writeFileSync(ipQ, `${ipQueries.join('\n')}\n`);
  const rounds = Number(process.env.GEO_SIDE_ROUNDS ?? 5);
  const ns = (x: number) => `${x.toFixed(0)} ns`;
  const side = (
    name: string,
    c: Parameters<typeof sideBySide>[1],
    target?: [string, (o: number, v: number) => boolean],
  ) => {
    const { ours, v2ray } = sideBySide(peer.path, c, rounds);
    if (ours.hits !== v2ray.hits) failures.push(`${name}: ${ours.hits} hits, v2ray ${v2ray.hits}`);
    const o = ours.nsPerLookup ?? 0;
    const v = v2ray.nsPerLookup ?? 0;
    const met = target ? target[1](o, v) : true;
    if (!met) failures.push(name);
    sideRows.push(
      `| ${name} | ${ns(o)} | ${ns(v)} | ${(v / o).toFixed(2)} | ${ours.hits} / ${v2ray.hits} | ${target ? `${target[0]}: ${met ? 'met' : 'MISSED'}` : '-'} |`,
    );
  };
  side('IP which-all, cn+private', { kind: 'ip', file: ipFile, codes: ['cn', 'private'], queries: ipQ }, [
    '>= 2x faster than v2ray',
    (o, v) => v / o >= 2,
  ]);
  side('IP which-all, all 252 lists', { kind: 'ip', file: ipFile, queries: ipQ });
  side('domain which-all, all 1536 dlc lists', { kind: 'site', file: dlcPath, queries: siteQ });
  side('domain which-all, cn+google+category-ads-all', {
    kind: 'site',
    file: dlcPath,
    codes: ['cn', 'google', 'category-ads-all'],
    queries: siteQ,
  });
  // GEO_KEEP=1 keeps the files (the 252-list geoip.dat and the query lists) to rerun one side by hand.
  if (process.env.GEO_KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `site: compile ${siteCompileMs.toFixed(0)} ms (${site.regexCount} regexps, ${site.re2jsPatterns.length} on re2js); ${siteQueries.length} queries, ${((siteHits / siteQueries.length) * 100).toFixed(0)}% match a list`,
);
console.log(
  `ip: build+decode ${ipBuildMs.toFixed(0)} ms, compile ${ipCompileMs.toFixed(0)} ms (${ip.intervals.v4} IPv4 + ${ip.intervals.v6} IPv6 intervals); ${((ipHits / ipQueries.length) * 100).toFixed(0)}% match a list`,
);
console.log('| measure | ours | baseline (same run) | ours / baseline |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
console.log('| allocation over 1,000,000 lookups | heap growth | GCs |');
console.log('|---|---|---|');
const allocRow = (name: string, a: { kb: number; gcs: number }, mustBeClean: boolean) => {
  console.log(`| ${name} | ${a.kb.toFixed(0)} KiB | ${a.gcs} |`);
  // Under a byte per lookup: nothing allocated per call (what remains is the timer's own garbage).
  if (mustBeClean && (a.gcs > 0 || a.kb > 1000)) failures.push(name);
};
allocRow('site match, lower-case queries (reused buffer)', sitePlainAlloc, true);
allocRow('site match, the mix with 5% upper case + trailing dot', siteAlloc, false);
allocRow('site matchCodes (convenience, allocates)', codesAlloc, false);
allocRow('IP match (text)', ipAlloc, true);
allocRow('IP matchV4 (uint32)', ipAllocV4, true);
allocRow('IP matchCodes (convenience, allocates)', ipCodesAlloc, false);
if (sideRows.length > 0) {
  console.log(
    'which-all lookups side by side with v2ray 4.34 (medians of alternating rounds, one process each)',
  );
  console.log('| lookup | branchgate | v2ray 4.34 | v2ray / branchgate | hits (same queries) | target |');
  console.log('|---|---|---|---|---|---|');
  for (const r of sideRows) console.log(r);
}
if (failures.length > 0) {
  console.log(`failed: ${failures.join('; ')}`);
  process.exitCode = 1;
}
