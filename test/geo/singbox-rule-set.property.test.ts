// Property tests of the sing-box rule-set reader and writers: hostile input (random truncations
// and byte flips of .srs files written from real lists, of their decompressed bodies, and of
// source JSON) is read or refused with a GeoError naming the file and where -- never another error,
// a hang or unbounded memory; random lists round-trip and keep their matching semantics.
import { resolve } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readRuleSet, readSrs, writeRuleSetSource, writeSrs } from '../../src/geo/formats/singbox/index.js';
import {
  CidrSet,
  DomainType,
  GeoDat,
  GeoError,
  type IpList,
  type SiteList,
  SiteMatcher,
  type SiteRule,
} from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';
import { ruleSetEvaluator } from './support/rule-set-eval.js';
import { namesForRules } from './support/site-names.js';

/** A copy of bytes cut at `cut` (when given) with the flips applied (positions taken modulo the length). */
function damage(bytes: Uint8Array, cut: number | null, flips: [number, number][]): Uint8Array {
  const out = cut === null ? bytes.slice() : bytes.slice(0, cut % (bytes.length + 1));
  for (const [at, value] of flips) if (out.length > 0) out[at % out.length] = value;
  return out;
}

const mutation = fc.record({
  cut: fc.option(fc.nat(), { nil: null, freq: 3 }),
  flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 0, maxLength: 4 }),
});

/** Reads damaged bytes: fine, or a GeoError naming the file and matching `where`; counts refusals. */
function readsOrRefuses(name: string, read: () => unknown, where: RegExp): boolean {
  try {
    read();
    return false;
  } catch (err) {
    if (!(err instanceof GeoError)) throw new Error(`${name}: ${String(err)} is not a GeoError`);
    expect(err.message.startsWith(`${name}: `), err.message).toBe(true);
    expect(err.message, err.message).toMatch(where);
    return true;
  }
}

const atByte = /byte \d+/;

describe.skipIf(!hasGeoCorpora)('hostile rule-sets made from real lists', () => {
  const dat = hasGeoCorpora ? GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat')) : undefined;
  const site = (code: string) => (dat as GeoDat).readSite((dat as GeoDat).get(code));
  const lists = (): (SiteList | IpList)[] => {
    const all = [...(dat as GeoDat).lists().values()].map((e) =>
      (dat as GeoDat).readSite(e[0] as (typeof e)[0]),
    );
    const withRegex = all.find(
      (l) =>
        l.rules.some((r) => r.type === DomainType.Regex) && l.rules.some((r) => r.type === DomainType.Full),
    );
    const geoip = GeoDat.open(resolve(geoCorpora, 'upstream/geoip-only-cn-private.dat'));
    const ip = geoip.entries.map((e) => geoip.readIp(e));
    geoip.close();
    return [site('GOOGLE'), site('CATEGORY-ADS-ALL'), withRegex as SiteList, ...ip];
  };

  test('truncated and flipped .srs files (and flipped bodies under valid zlib) are read or refused at a byte', () => {
    const heapBefore = process.memoryUsage().heapUsed;
    let refused = 0;
    let runs = 0;
    for (const list of lists()) {
      for (const version of [1, 2] as const) {
        const name = `${list.code.toLowerCase()}-v${version}.srs`;
        const file = writeSrs(list, { version });
        const body = inflateSync(file.subarray(4));
        fc.assert(
          fc.property(mutation, fc.boolean(), ({ cut, flips }, inBody) => {
            const bytes = inBody
              ? Buffer.concat([file.subarray(0, 4), deflateSync(damage(body, cut, flips))])
              : damage(file, cut, flips);
            runs++;
            // (A flip that turns byte 0 into "{" makes it JSON text, refused at a line and column.)
            if (readsOrRefuses(name, () => readRuleSet(bytes, name), /byte \d+|line \d+ column \d+/))
              refused++;
          }),
          { numRuns: 150, seed: 20261125 },
        );
      }
    }
    expect(runs).toBe(150 * 2 * 5);
    expect(refused).toBeGreaterThan(runs / 2);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(512 * 1024 * 1024);
  }, 120_000);

  test('damaged bodies of the big CN list: the domain matcher parts one at a time', () => {
    const list = site('CN');
    const file = writeSrs(list, { version: 2 });
    const body = inflateSync(file.subarray(4));
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(body.length - 1), fc.integer({ min: 0, max: 255 }), (at, value) => {
        const bytes = Buffer.concat([file.subarray(0, 4), deflateSync(damage(body, null, [[at, value]]))]);
        if (readsOrRefuses('cn.srs', () => readRuleSet(bytes, 'cn.srs'), atByte)) refused++;
      }),
      { numRuns: 120, seed: 7 },
    );
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  test('damaged source JSON is read or refused at a line and column or a JSON path', () => {
    const list = site('GOOGLE');
    const json = Buffer.from(writeRuleSetSource(list, { version: 2 }));
    fc.assert(
      fc.property(mutation, ({ cut, flips }) => {
        const bytes = damage(json, cut, flips);
        readsOrRefuses(
          'google.json',
          () => readRuleSet(bytes, 'google.json'),
          /line \d+ column \d+|at byte 0|rules\[\d+\]|version|top level|^google\.json: \w+: unknown field/,
        );
      }),
      { numRuns: 300, seed: 11 },
    );
  }, 60_000);
});

// Random lists: names made of a few letters so that rules collide, nest and near-miss each other.
const label = fc.stringMatching(/^[a-c]{1,3}$/);
const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const siteRule: fc.Arbitrary<SiteRule> = fc.oneof(
  name.map((value) => ({ type: DomainType.Full, value, attributes: [] })),
  name.map((value) => ({ type: DomainType.RootDomain, value, attributes: [{ key: 'ads', value: true }] })),
  label.map((value) => ({ type: DomainType.Plain, value, attributes: [] })),
  name.map((value) => ({
    type: DomainType.Regex,
    value: `^${value.replace(/\./g, '\\.')}$`,
    attributes: [],
  })),
);

describe('random lists', () => {
  test("site lists: .srs (v1, v2) and JSON round trips keep every name's match", () => {
    fc.assert(
      fc.property(
        fc.array(siteRule, { maxLength: 30 }),
        fc.constantFrom(1 as const, 2 as const),
        (rules, version) => {
          const list: SiteList = { code: 'R', rules };
          const matcher = SiteMatcher.compile([list]);
          const names = [...namesForRules(rules, 30), 'a', 'b.a', 'c.b.a', 'ab.c'];
          const srs = writeSrs(list, { version });
          const fromSrs = ruleSetEvaluator(readSrs(srs, 'r.srs'));
          const back = readRuleSet(srs, 'r.srs');
          expect(Buffer.compare(writeSrs(back.list, { version }), srs)).toBe(0);
          const fromJson = readRuleSet(Buffer.from(writeRuleSetSource(list, { version })), 'r.json');
          const jsonMatcher = SiteMatcher.compile([fromJson.list as SiteList]);
          for (const n of names) {
            const want = matcher.matchCodes(n).length > 0;
            expect(fromSrs(n), n).toBe(want);
            expect(jsonMatcher.matchCodes(n).length > 0, n).toBe(want);
          }
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });

  test('IP lists: .srs holds the merged networks, JSON the networks as listed', () => {
    const cidr = fc.oneof(
      fc.tuple(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 32 })),
      fc.tuple(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.integer({ min: 0, max: 128 })),
    );
    fc.assert(
      fc.property(fc.array(cidr, { minLength: 1, maxLength: 20 }), fc.boolean(), (raw, inverseMatch) => {
        const set = new CidrSet();
        for (const [ip, prefix] of raw) set.addCidr({ ip, prefix });
        const cidrs = set.build();
        // Listed (unmerged, masked) networks for JSON: the merged ones plus a copy of the first.
        const list: IpList = { code: 'I', cidrs: [...cidrs, cidrs[0] as (typeof cidrs)[0]], inverseMatch };
        const back = readRuleSet(writeSrs(list, { version: 2 }), 'i.srs');
        expect(back.list).toEqual({ code: 'I', cidrs, inverseMatch });
        const json = readRuleSet(Buffer.from(writeRuleSetSource(list, { version: 2 })), 'i.json');
        expect(json.list).toEqual(list);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
