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
import { buildOurs, buildPeer, median, sideBySide } from './support/geo-side-by-side.js';

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

/** Medians of ours and of the baseline over `runs` alternating rounds (ours, baseline, ours, ...). */
function paired(runs: number, ours: () => unknown, baseline: () => unknown): [number, number] {
  const a: number[] = [];
  const b: number[] = [];
  const time = (fn: () => unknown, into: number[]) => {
    const t = performance.now();
    fn();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      time(ours, a);
      time(baseline, b);
    } else {
      time(baseline, b);
      time(ours, a);
    }
  }
  return [median(a), median(b)];
}

const rows: string[] = [];
const failures: string[] = [];
function report(
  name: string,
  ours: () => unknown,
  baselineName: string,
  baselineFn: () => unknown,
  runs: number,
  targetMs?: number,
): void {
  const [oursMs, baseline] = paired(runs, ours, baselineFn);
  reportTimes(name, oursMs, baselineName, baseline, targetMs);
}

function reportTimes(
  name: string,
  ours: number,
  baselineName: string,
  baseline: number,
  targetMs?: number,
): void {
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
    () => buildSiteDat(dataDir),
    'read files + split lines',
    () => readAndSplit(listSourceFiles(dataDir)),
    3,
    2000,
  );
  const lists = compileSites(loadSiteSources(dataDir));
  report(
    'site encode only (hand-written)',
    () => encodeGeoSiteList(lists),
    'create()+toBinary',
    () => toBinary(GeoSiteListSchema, sitesToMessage(lists)),
    5,
  );
}

// 2. IP build: 252 v2fly countries (target). Encoder alone against the generic codec.
const tmp = mkdtempSync(join(tmpdir(), 'branchgate-bench-'));
const bigIp = join(tmp, 'geoip-252.dat');
{
  let bytes: Uint8Array = new Uint8Array(0);
  const files = readdirSync(ipDir).map((f) => join(ipDir, f));
  const [ours, baseline] = paired(
    3,
    () => {
      bytes = buildIpDat([ipDir]).bytes;
    },
    () => readAndSplit(files),
  );
  writeFileSync(bigIp, bytes);
  const lists = compileIpLists(loadIpSources([ipDir]));
  const cidrs = lists.reduce((n, l) => n + l.cidrs.length, 0);
  reportTimes(
    `IP build, ${lists.length} lists, ${cidrs} CIDRs (read+parse+merge+encode)`,
    ours,
    'read files + split lines',
    baseline,
    5000,
  );
  report(
    'IP encode only (hand-written)',
    () => encodeGeoIpList(lists),
    'create()+toBinary',
    () => toBinary(GeoIPListSchema, ipsToMessage(lists)),
    3,
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
    dumpOurs(dlcPath, 'CN', false),
    'fromBinary whole file',
    dumpBaseline(dlcPath, 'CN', false),
    15,
    50,
  );
  report(
    'dump GOOGLE from dlc.dat',
    dumpOurs(dlcPath, 'GOOGLE', false),
    'fromBinary whole file',
    dumpBaseline(dlcPath, 'GOOGLE', false),
    15,
    50,
  );
  report(
    'dump DE from 252-list geoip.dat (18 MB)',
    dumpOurs(bigIp, 'DE', true),
    'fromBinary whole file',
    dumpBaseline(bigIp, 'DE', true),
    9,
  );
  report(
    'dump PRIVATE from 252-list geoip.dat',
    dumpOurs(bigIp, 'PRIVATE', true),
    'fromBinary whole file',
    dumpBaseline(bigIp, 'PRIVATE', true),
    9,
  );
  const infoOf = (path: string) => () => {
    const dat = GeoDat.open(path);
    datInfo(dat);
    dat.close();
  };
  report(
    'info of 252-list geoip.dat',
    infoOf(bigIp),
    'fromBinary whole file',
    () => fromBinary(GeoIPListSchema, readFileSync(bigIp)),
    3,
  );
  report(
    'info of dlc.dat',
    infoOf(dlcPath),
    'fromBinary whole file',
    () => fromBinary(GeoSiteListSchema, readFileSync(dlcPath)),
    5,
  );
}
// 4. Side by side with v2ray 4.34 (bench/v2ray-peer): a fresh process per measurement on each
// side, alternating, medians of `sideRounds`. Targets of the lean-loading issue.
const sideRows: string[] = [];
const sideRounds = Number(process.env.GEO_SIDE_ROUNDS ?? 5);
const peer = buildPeer();
if ('missing' in peer) {
  console.log(`v2ray side by side skipped: ${peer.missing}`);
  if (process.env.CI) failures.push('v2ray side by side');
} else {
  buildOurs();
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const side = (
    name: string,
    ours: number,
    v2ray: number,
    show: (x: number) => string,
    target: string,
    met: boolean,
  ) => {
    if (!met) failures.push(name);
    sideRows.push(
      `| ${name} | ${show(ours)} | ${show(v2ray)} | ${(ours / v2ray).toFixed(2)} | ${target}: ${met ? 'met' : 'MISSED'} |`,
    );
  };
  const ip = sideBySide(peer.path, { kind: 'ip', file: bigIp }, sideRounds);
  side(
    'peak RSS, IP matcher for all 252 lists',
    ip.ours.peakRssKb,
    ip.v2ray.peakRssKb,
    mb,
    "below v2ray's and < 150 MB",
    ip.ours.peakRssKb < ip.v2ray.peakRssKb && ip.ours.peakRssKb < 150 * 1024,
  );
  side(
    'build, all 252 IP lists',
    ip.ours.buildMs,
    ip.v2ray.buildMs,
    ms,
    'no slower than v2ray',
    ip.ours.buildMs <= ip.v2ray.buildMs,
  );
  const site = sideBySide(peer.path, { kind: 'site', file: dlcPath }, sideRounds);
  side(
    'RSS after the site matcher for all 1536 lists',
    site.ours.rssKb,
    site.v2ray.rssKb,
    mb,
    "<= 1.5x v2ray's",
    site.ours.rssKb <= 1.5 * site.v2ray.rssKb,
  );
  side(
    'build, all 1536 site lists',
    site.ours.buildMs,
    site.v2ray.buildMs,
    ms,
    'no slower than v2ray',
    site.ours.buildMs <= site.v2ray.buildMs,
  );
  const cn = sideBySide(peer.path, { kind: 'ip', file: bigIp, codes: ['cn', 'private'] }, sideRounds);
  side(
    'build, cn+private from the 252-list file (first build in the process)',
    cn.ours.buildMs,
    cn.v2ray.buildMs,
    ms,
    '< 10 ms',
    cn.ours.buildMs < 10,
  );
  const small = resolve(corpora, 'upstream/geoip-only-cn-private.dat');
  const cnSmall = sideBySide(peer.path, { kind: 'ip', file: small, codes: ['cn', 'private'] }, sideRounds);
  side(
    'build, cn+private from geoip-only-cn-private.dat',
    cnSmall.ours.buildMs,
    cnSmall.v2ray.buildMs,
    ms,
    '< 10 ms',
    cnSmall.ours.buildMs < 10,
  );
  sideRows.push(
    `| RSS after the IP matcher for all 252 lists | ${mb(ip.ours.rssKb)} | ${mb(ip.v2ray.rssKb)} | ${(ip.ours.rssKb / ip.v2ray.rssKb).toFixed(2)} | - |`,
  );
  sideRows.push(
    `| peak RSS, site matcher | ${mb(site.ours.peakRssKb)} | ${mb(site.v2ray.peakRssKb)} | ${(site.ours.peakRssKb / site.v2ray.peakRssKb).toFixed(2)} | - |`,
  );
}
rmSync(tmp, { recursive: true, force: true });

console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
console.log('| measure | ours (median) | baseline (same run) | ours / baseline | target |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (sideRows.length > 0) {
  console.log('');
  console.log(`side by side with v2ray 4.34, medians of ${sideRounds} alternating rounds, one process each`);
  console.log('| measured side by side | branchgate | v2ray 4.34 | branchgate / v2ray | target |');
  console.log('|---|---|---|---|---|');
  for (const r of sideRows) console.log(r);
}
if (failures.length > 0) {
  console.log(`targets missed: ${failures.join('; ')}`);
  process.exitCode = 1;
}
