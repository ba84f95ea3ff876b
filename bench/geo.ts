// Geo benchmarks: full domain-list-community build, the 252-country IP build, and info/dump of real
// files, each against a baseline run in the same process (the generic @bufbuild/protobuf codec).
// Run: node bin/run-ts.js bench/geo.ts   (needs ../shared/corpora beside the repository)
// Prints medians, ratios and whether each target holds; exits 1 when a target is missed.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { GeoIPListSchema, GeoSiteListSchema } from '../src/geo/gen/geo_pb.js';
import {
  buildIpDat,
  buildSiteDat,
  cidrToText,
  compileIpLists,
  compileSites,
  datInfo,
  encodeGeoIpList,
  encodeGeoSiteList,
  GeoDat,
  type IpList,
  type SiteList,
  siteRuleToText,
} from '../src/geo/index.js';
import { loadIpSources } from '../src/geo/ip/ip-loader.js';
import { listSourceFiles, loadSiteSources } from '../src/geo/site/site-loader.js';

const corpora = resolve(import.meta.dirname, '../../shared/corpora/geo');
const dataDir = resolve(corpora, 'domain-list-community/data');
const ipDir = resolve(corpora, 'cidr/v2fly-geoip/text');
const dlcPath = resolve(corpora, 'upstream/dlc.dat');

/** The floor any builder pays: read every input file and split it into lines. */
function readAndSplit(files: readonly string[]): number {
  let lines = 0;
  for (const f of files) lines += readFileSync(f, 'utf8').split('\n').length;
  return lines;
}

function median(runs: number, fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const rows: string[] = [];
const failures: string[] = [];
function report(name: string, ours: number, baselineName: string, baseline: number, targetMs?: number): void {
  const ok = targetMs === undefined || ours < targetMs;
  if (!ok) failures.push(name);
  const base = `${baselineName}: ${baseline.toFixed(1)} ms`;
  const ratio = `${(ours / baseline).toFixed(2)}`;
  rows.push(
    `| ${name} | ${ours.toFixed(1)} ms | ${base} | ${ratio} | ${
      targetMs === undefined ? '-' : `< ${targetMs} ms: ${ok ? 'met' : 'MISSED'}`
    } |`,
  );
}

function sitesToMessage(lists: readonly SiteList[]) {
  return create(GeoSiteListSchema, {
    entry: lists.map((l) => ({
      countryCode: l.code,
      domain: l.rules.map((r) => ({
        type: r.type,
        value: r.value,
        attribute: r.attributes.map((a) => ({
          key: a.key,
          typedValue: { case: 'boolValue' as const, value: a.value === true },
        })),
      })),
    })),
  });
}

function ipsToMessage(lists: readonly IpList[]) {
  return create(GeoIPListSchema, {
    entry: lists.map((l) => ({
      countryCode: l.code,
      cidr: l.cidrs.map((c) => ({ ip: c.ip, prefix: c.prefix })),
    })),
  });
}

// 1. Site build: whole tree, sources to bytes (target). Encoder alone against the generic codec.
{
  report(
    'site build, 1536 lists (read+parse+compile+encode)',
    median(3, () => buildSiteDat(dataDir)),
    'read files + split lines',
    median(3, () => readAndSplit(listSourceFiles(dataDir))),
    2000,
  );
  const lists = compileSites(loadSiteSources(dataDir));
  report(
    'site encode only (hand-written)',
    median(5, () => encodeGeoSiteList(lists)),
    'create()+toBinary',
    median(5, () => toBinary(GeoSiteListSchema, sitesToMessage(lists))),
  );
}

// 2. IP build: 252 v2fly countries (target). Encoder alone against the generic codec.
const tmp = mkdtempSync(join(tmpdir(), 'branchgate-bench-'));
const bigIp = join(tmp, 'geoip-252.dat');
{
  let bytes: Uint8Array = new Uint8Array(0);
  const ours = median(3, () => {
    bytes = buildIpDat([ipDir]).bytes;
  });
  writeFileSync(bigIp, bytes);
  const lists = compileIpLists(loadIpSources([ipDir]));
  const cidrs = lists.reduce((n, l) => n + l.cidrs.length, 0);
  const files = readdirSync(ipDir).map((f) => join(ipDir, f));
  report(
    `IP build, ${lists.length} lists, ${cidrs} CIDRs (read+parse+merge+encode)`,
    ours,
    'read files + split lines',
    median(3, () => readAndSplit(files)),
    5000,
  );
  report(
    'IP encode only (hand-written)',
    median(3, () => encodeGeoIpList(lists)),
    'create()+toBinary',
    median(3, () => toBinary(GeoIPListSchema, ipsToMessage(lists))),
  );
}

// 3. dump one list from dlc.dat (open, index, decode one, format). Baseline: full fromBinary.
{
  const dumpOurs = (path: string, code: string, ip: boolean) => () => {
    const dat = GeoDat.open(path);
    const e = dat.get(code);
    const text = ip
      ? dat.readIp(e).cidrs.map((c) => cidrToText(c.ip, c.prefix))
      : dat.readSite(e).rules.map(siteRuleToText);
    dat.close();
    return text.join('\n');
  };
  const dumpBaseline = (path: string, code: string, ip: boolean) => () => {
    const bytes = readFileSync(path);
    if (ip) {
      const list = fromBinary(GeoIPListSchema, bytes).entry.find((x) => x.countryCode === code);
      return list?.cidr.map((c) => cidrToText(c.ip, c.prefix)).join('\n');
    }
    const list = fromBinary(GeoSiteListSchema, bytes).entry.find((x) => x.countryCode === code);
    return list?.domain
      .map((d) => siteRuleToText({ type: d.type, value: d.value, attributes: [] }))
      .join('\n');
  };
  report(
    'dump CN from dlc.dat (2.2 MB)',
    median(15, dumpOurs(dlcPath, 'CN', false)),
    'fromBinary whole file',
    median(5, dumpBaseline(dlcPath, 'CN', false)),
    50,
  );
  report(
    'dump GOOGLE from dlc.dat',
    median(15, dumpOurs(dlcPath, 'GOOGLE', false)),
    'fromBinary whole file',
    median(5, dumpBaseline(dlcPath, 'GOOGLE', false)),
    50,
  );
  report(
    'dump DE from 252-list geoip.dat (18 MB)',
    median(9, dumpOurs(bigIp, 'DE', true)),
    'fromBinary whole file',
    median(3, dumpBaseline(bigIp, 'DE', true)),
  );
  report(
    'dump PRIVATE from 252-list geoip.dat',
    median(9, dumpOurs(bigIp, 'PRIVATE', true)),
    'fromBinary whole file',
    median(3, dumpBaseline(bigIp, 'PRIVATE', true)),
  );
  const infoOf = (path: string) => () => {
    const dat = GeoDat.open(path);
    datInfo(dat);
    dat.close();
  };
  report(
    'info of 252-list geoip.dat',
    median(3, infoOf(bigIp)),
    'fromBinary whole file',
    median(3, () => fromBinary(GeoIPListSchema, readFileSync(bigIp))),
  );
  report(
    'info of dlc.dat',
    median(5, infoOf(dlcPath)),
    'fromBinary whole file',
    median(5, () => fromBinary(GeoSiteListSchema, readFileSync(dlcPath))),
  );
}
rmSync(tmp, { recursive: true, force: true });

console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
console.log('| measure | ours (median) | baseline (same run) | ours / baseline | target |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (failures.length > 0) {
  console.log(`targets missed: ${failures.join('; ')}`);
  process.exitCode = 1;
}
