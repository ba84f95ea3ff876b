// sing-box rule-sets: round trips of every real dlc and geoip list through .srs (versions 1 to 4)
// and source JSON, rule by rule and byte for byte; matching semantics against the site matcher;
// the binary layout on hand-checked bytes; what is refused and how.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { domainMatcherKeys } from '../../src/geo/formats/singbox/domain-matcher-keys.js';
import {
  readRuleSet,
  readSrs,
  ruleSetCode,
  writeRuleSetSource,
  writeSrs,
} from '../../src/geo/formats/singbox/index.js';
import { SrsSink } from '../../src/geo/formats/singbox/srs-sink.js';
import { encodeSuccinctSet } from '../../src/geo/formats/singbox/succinct-set-encoder.js';
import {
  CidrSet,
  DomainType,
  GeoDat,
  type IpList,
  type SiteList,
  SiteMatcher,
  type SiteRule,
} from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora, UPSTREAM_GEOIP_FILES } from './support/corpora.js';
import { geoError as refusal } from './support/geo-error.js';
import { ipReference } from './support/matcher-reference.js';
import { ruleSetEvaluator } from './support/rule-set-eval.js';
import { namesForRules } from './support/site-names.js';

const rule = (type: DomainType, value: string): SiteRule => ({ type, value, attributes: [] });

/** What an .srs holds of a site list: no attributes, each value once, full names under an equal domain rule dropped, names sorted. */
function srsProjection(list: SiteList): SiteRule[] {
  const values = (type: DomainType) => [
    ...new Set(list.rules.filter((r) => r.type === type).map((r) => r.value)),
  ];
  const roots = values(DomainType.RootDomain);
  const rootSet = new Set(roots);
  // dlc values are ASCII, where JavaScript's sort is the bytewise order sing-box sorts in.
  const full = values(DomainType.Full)
    .filter((v) => !rootSet.has(v))
    .sort();
  return [
    ...full.map((v) => rule(DomainType.Full, v)),
    ...roots.sort().map((v) => rule(DomainType.RootDomain, v)),
    ...values(DomainType.Plain).map((v) => rule(DomainType.Plain, v)),
    ...values(DomainType.Regex).map((v) => rule(DomainType.Regex, v)),
  ];
}

/** What source JSON holds of a site list: no attributes, each value once, grouped by type in list order. */
function jsonProjection(list: SiteList): SiteRule[] {
  const values = (type: DomainType) => [
    ...new Set(list.rules.filter((r) => r.type === type).map((r) => r.value)),
  ];
  return [DomainType.Full, DomainType.RootDomain, DomainType.Plain, DomainType.Regex].flatMap((type) =>
    values(type).map((v) => rule(type, v)),
  );
}

function siteOf(bytes: Uint8Array, name: string): SiteList {
  const read = readRuleSet(bytes, name);
  if (read.kind !== 'site') throw new Error(`${name} read as ${read.kind}`);
  return read.list;
}

function ipOf(bytes: Uint8Array, name: string): IpList {
  const read = readRuleSet(bytes, name);
  if (read.kind !== 'ip') throw new Error(`${name} read as ${read.kind}`);
  return read.list;
}

const text = new TextEncoder();

describe.skipIf(!hasGeoCorpora)('round trips on the real dlc.dat and geoip files', () => {
  const dat = hasGeoCorpora ? GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat')) : undefined;
  const lists = dat
    ? [...dat.lists().values()].map((entries) => dat.readSite(entries[0] as (typeof entries)[0]))
    : [];

  test('every site list -> .srs (v1, v2) -> read gives exactly the rules the format holds; -> .srs again is byte-identical', () => {
    expect(lists.length).toBe(1536);
    let rules = 0;
    for (const list of lists) {
      const expected = srsProjection(list);
      for (const version of [1, 2] as const) {
        const name = `geosite-${list.code.toLowerCase()}.srs`;
        const bytes = writeSrs(list, { version });
        expect(bytes[3]).toBe(version);
        const back = siteOf(bytes, name);
        expect(back.code).toBe(list.code);
        expect(back.rules, `${list.code} v${version}`).toEqual(expected);
        expect(Buffer.compare(writeSrs(back, { version }), bytes), `${list.code} v${version}`).toBe(0);
      }
      rules += expected.length;
    }
    // Sanity: nearly all of dlc's 109,236 rules survive (attributes and duplicates aside).
    expect(rules).toBeGreaterThan(100_000);
  }, 120_000);

  test('versions 3 and 4 are written as sing-box compiles them: marked 2, the same body as 2', () => {
    for (const code of ['GOOGLE', 'CN', 'CATEGORY-ADS-ALL']) {
      const list = lists.find((l) => l.code === code) as SiteList;
      const v2 = writeSrs(list, { version: 2 });
      for (const version of [3, 4] as const) {
        expect(Buffer.compare(writeSrs(list, { version }), v2)).toBe(0);
      }
      // The v1 body differs: each domain_suffix is a full name plus a '\r.' prefix key.
      expect(Buffer.compare(writeSrs(list, { version: 1 }).subarray(4), v2.subarray(4))).not.toBe(0);
    }
  });

  test('every site list -> source JSON -> read gives each value once, by type, in list order; same .srs as the list', () => {
    for (const list of lists) {
      const json = writeRuleSetSource(list, { version: 3 });
      const back = siteOf(text.encode(json), `${list.code}.json`);
      expect(back.rules, list.code).toEqual(jsonProjection(list));
      expect(Buffer.compare(writeSrs(back, { version: 2 }), writeSrs(list, { version: 2 })), list.code).toBe(
        0,
      );
      expect(writeRuleSetSource(back, { version: 3 })).toBe(json);
    }
  }, 60_000);

  test('every list of the real geoip files: .srs holds the merged networks and inverse_match; JSON holds them as listed', () => {
    let lists = 0;
    for (const file of UPSTREAM_GEOIP_FILES) {
      const geoip = GeoDat.open(resolve(geoCorpora, 'upstream', file));
      for (const entry of geoip.entries) {
        const list = geoip.readIp(entry);
        const merged = new CidrSet();
        for (const c of list.cidrs) merged.addCidr(c);
        for (const version of [1, 2] as const) {
          const bytes = writeSrs(list, { version });
          const back = ipOf(bytes, `geoip-${list.code.toLowerCase()}.srs`);
          expect(back.cidrs, `${file} ${list.code}`).toEqual(merged.build());
          expect(back.inverseMatch).toBe(list.inverseMatch);
          expect(Buffer.compare(writeSrs(back, { version }), bytes)).toBe(0);
        }
        const json = writeRuleSetSource(list, { version: 2 });
        const fromJson = ipOf(text.encode(json), `${list.code}.json`);
        expect(fromJson.cidrs).toEqual(list.cidrs);
        expect(fromJson.inverseMatch).toBe(list.inverseMatch);
        lists++;
      }
      geoip.close();
    }
    expect(lists).toBe(6);
  }, 60_000);

  test('an inverse_match list becomes an inverted ip_cidr rule and back', () => {
    const list: IpList = {
      code: 'NOT-CN',
      cidrs: [{ ip: Uint8Array.of(1, 0, 1, 0), prefix: 24 }],
      inverseMatch: true,
    };
    const back = ipOf(writeSrs(list, { version: 2 }), 'x.srs');
    expect(back).toEqual({ code: 'X', cidrs: list.cidrs, inverseMatch: true });
    expect(writeRuleSetSource(list, { version: 2 })).toContain('"invert": true');
  });

  test('names the dat lists match are matched by a plain evaluation of the read-back rule-set (and no others)', () => {
    let checked = 0;
    let matched = 0;
    for (const list of lists) {
      const matcher = SiteMatcher.compile([list]);
      const names = namesForRules(list.rules);
      for (const version of [1, 2] as const) {
        const matches = ruleSetEvaluator(readSrs(writeSrs(list, { version }), 'x.srs'));
        for (const name of names) {
          const expected = matcher.matchCodes(name).length > 0;
          expect(matches(name), `${list.code} v${version}: ${name}`).toBe(expected);
          checked++;
          if (expected) matched++;
        }
      }
    }
    // Both outcomes are well represented.
    expect(matched).toBeGreaterThan(checked / 5);
    expect(checked - matched).toBeGreaterThan(checked / 5);
  }, 180_000);

  test('addresses the geoip lists match (range edges and neighbours) are matched by the read-back lists', () => {
    for (const file of ['geoip-cn.dat', 'geoip-only-cn-private.dat']) {
      const geoip = GeoDat.open(resolve(geoCorpora, 'upstream', file));
      for (const entry of geoip.entries) {
        const list = geoip.readIp(entry);
        const back = ipOf(writeSrs(list, { version: 2 }), 'x.srs');
        const want = ipReference([list]);
        const got = ipReference([{ ...back, code: list.code }]);
        for (let i = 0; i < list.cidrs.length; i += 7) {
          const c = list.cidrs[i] as (typeof list.cidrs)[0];
          for (const delta of [-1, 0, 1]) {
            const ip = c.ip.slice();
            const last = ip.length - 1;
            ip[last] = ((ip[last] as number) + delta + 256) % 256;
            expect(got(ip), `${list.code} ${ip.join('.')}`).toEqual(want(ip));
          }
        }
      }
      geoip.close();
    }
  });
});

/** An .srs file from a hand-made body (header "SRS", version, zlib). */
function srsFile(body: Uint8Array, version = 2): Uint8Array {
  return Buffer.concat([Buffer.from([0x53, 0x52, 0x53, version]), deflateSync(body)]);
}

/** A body of one default rule holding a domain matcher of the given keys, then `after` bytes. */
function domainBody(
  domains: string[],
  suffixes: string[],
  legacy: boolean,
  after: number[] = [],
): Uint8Array {
  const sink = new SrsSink();
  sink.u8(1);
  sink.u8(0);
  sink.u8(2);
  const set = encodeSuccinctSet(domainMatcherKeys(domains, suffixes, legacy));
  sink.u8(0);
  sink.uvarint(set.leaves.length / 8);
  sink.raw(set.leaves);
  sink.uvarint(set.labelBitmap.length / 8);
  sink.raw(set.labelBitmap);
  sink.lengthPrefixed(set.labels);
  for (const b of after) sink.u8(b);
  sink.u8(0xff);
  sink.u8(0);
  return sink.bytes().slice();
}

describe('the binary layout', () => {
  test('domain_suffix "a" (version 2): the exact bytes sing-box writes', () => {
    const body = inflateSync(
      writeSrs({ code: 'A', rules: [rule(DomainType.RootDomain, 'a')] }, { version: 2 }).subarray(4),
    );
    // Key "a\n" (the name reversed, then the root label). Nodes breadth first: root -a-> 1 -\n-> 2.
    // Label bitmap: root [0 1], node 1 [0 1], node 2 [1] -> bits 0b11010; node 2 is the leaf.
    expect([...body]).toEqual([
      1, // one rule
      0, // a default rule
      2, // domain item
      0, // succinct set format
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x04, // leaves: one big-endian word, bit 2
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x1a, // label bitmap: one word, bits 1, 3, 4
      2,
      0x61,
      0x0a, // labels "a", "\n"
      0xff, // final
      0, // not inverted
    ]);
  });

  test('version 1 writes domain_suffix "a" as the keys "a" and "a.\\r" (reversed) and reads it back as one rule', () => {
    const keys = domainMatcherKeys([], ['a'], true).map((k) => Buffer.from(k).toString('latin1'));
    expect(keys).toEqual(['a', 'a.\r']);
    const list: SiteList = { code: 'A', rules: [rule(DomainType.RootDomain, 'a')] };
    expect(siteOf(writeSrs(list, { version: 1 }), 'a.srs').rules).toEqual(list.rules);
  });

  test('ip_cidr: netipx ranges (IPv4 first, 4- and 16-byte addresses, a big-endian uint64 count)', () => {
    const list: IpList = {
      code: 'X',
      cidrs: [
        { ip: Uint8Array.of(0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0)), prefix: 32 },
        { ip: Uint8Array.of(10, 0, 0, 0), prefix: 9 },
        { ip: Uint8Array.of(10, 128, 0, 0), prefix: 9 },
      ],
      inverseMatch: false,
    };
    const body = inflateSync(writeSrs(list, { version: 2 }).subarray(4));
    const v6From = [0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0)];
    const v6To = [0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0xff)];
    expect([...body]).toEqual([
      1,
      0,
      6,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      2, // rule, ip_cidr item, set format 1, two ranges
      4,
      10,
      0,
      0,
      0,
      4,
      10,
      255,
      255,
      255, // 10.0.0.0 - 10.255.255.255 (the two /9 merged)
      16,
      ...v6From,
      16,
      ...v6To,
      0xff,
      0,
    ]);
  });

  test('sing-geosite\'s form of a v2ray domain rule (domain "x" + domain_suffix ".x") reads back as one domain rule', () => {
    const list = siteOf(
      srsFile(domainBody(['example.com'], ['.example.com', '.cn'], false)),
      'geosite-x.srs',
    );
    // ".cn" alone (sing-geosite writes no `domain` for a single label) matches strict subdomains only.
    expect(list.rules).toEqual([
      rule(DomainType.RootDomain, 'example.com'),
      rule(DomainType.Regex, '\\.cn$'),
    ]);
    const matches = ruleSetEvaluator(
      readSrs(srsFile(domainBody(['example.com'], ['.example.com', '.cn'], false)), 'x'),
    );
    const matcher = SiteMatcher.compile([list]);
    for (const name of ['cn', 'gov.cn', 'example.com', 'a.example.com', 'xexample.com', 'example.cn.net']) {
      expect(matcher.matchCodes(name).length > 0, name).toBe(matches(name));
    }
  });

  test('keyword and regexp items are uvarint-counted strings, in list order', () => {
    const list: SiteList = {
      code: 'K',
      rules: [
        rule(DomainType.Plain, 'zeta'),
        rule(DomainType.Regex, '^a\\.b$'),
        rule(DomainType.Plain, 'alpha'),
      ],
    };
    const body = inflateSync(writeSrs(list, { version: 2 }).subarray(4));
    expect([...body]).toEqual([
      1,
      0,
      3,
      2,
      4,
      ...Buffer.from('zeta'),
      5,
      ...Buffer.from('alpha'),
      4,
      1,
      6,
      ...Buffer.from('^a\\.b$'),
      0xff,
      0,
    ]);
    expect(siteOf(writeSrs(list, { version: 2 }), 'k.srs').rules).toEqual([
      list.rules[0],
      list.rules[2],
      list.rules[1],
    ]);
  });

  test('an empty list is a rule-set with no rules; it reads back as the kind asked for', () => {
    const bytes = writeSrs({ code: 'E', rules: [] }, { version: 2 });
    expect([...inflateSync(bytes.subarray(4))]).toEqual([0]);
    expect(readRuleSet(bytes, 'e.srs')).toMatchObject({ kind: 'site', list: { code: 'E', rules: [] } });
    expect(readRuleSet(bytes, 'e.srs', { emptyKind: 'ip' })).toMatchObject({
      kind: 'ip',
      list: { cidrs: [] },
    });
    expect(writeRuleSetSource({ code: 'E', rules: [] }, { version: 2 })).toBe('{\n  "version": 2\n}\n');
  });

  test('the code comes from the caller or the file name', () => {
    expect(ruleSetCode('/x/geosite-category-ads-all.srs')).toBe('CATEGORY-ADS-ALL');
    expect(ruleSetCode('geoip-cn.json')).toBe('CN');
    expect(ruleSetCode('C:\\rules\\google.srs')).toBe('GOOGLE');
    const bytes = writeSrs({ code: 'G', rules: [rule(DomainType.Full, 'a.b')] }, { version: 2 });
    expect(readRuleSet(bytes, 'whatever.srs', { code: 'MINE' }).list.code).toBe('MINE');
  });
});

describe('source JSON', () => {
  test('written as sing-box prints it: one value bare, fields in sing-box order, <>& escaped', () => {
    const list: SiteList = {
      code: 'X',
      rules: [
        rule(DomainType.Regex, 'a<b>&c'),
        rule(DomainType.RootDomain, 'example.com'),
        rule(DomainType.Full, 'www.example.org'),
        rule(DomainType.Full, 'x.org'),
      ],
    };
    expect(writeRuleSetSource(list, { version: 3 })).toBe(
      '{\n  "version": 3,\n  "rules": [\n    {\n      "domain": [\n        "www.example.org",\n        "x.org"\n      ],\n' +
        '      "domain_suffix": "example.com",\n      "domain_regex": "a\\u003cb\\u003e\\u0026c"\n    }\n  ]\n}\n',
    );
  });

  test('reads several rules, bare values, empty items it cannot hold, leading-dot suffixes, field names in any case (as Go)', () => {
    const json = JSON.stringify({
      version: 1,
      rules: [
        { domain_suffix: ['.example.com', 'example.net'], process_name: [], invert: false },
        { Type: 'default', domain_keyword: 'ads', Domain: 'x.org' },
      ],
    });
    expect(siteOf(text.encode(json), 'ads.json').rules).toEqual([
      rule(DomainType.RootDomain, 'example.net'),
      rule(DomainType.Regex, '\\.example\\.com$'),
      rule(DomainType.Full, 'x.org'),
      rule(DomainType.Plain, 'ads'),
    ]);
  });

  test('ip_cidr accepts bare addresses and clears host bits', () => {
    const json = '{"version":2,"rules":[{"ip_cidr":["192.168.1.7","10.1.2.3/8","2001:db8::1/32"]}]}';
    expect(ipOf(text.encode(json), 'x.json').cidrs).toEqual([
      { ip: Uint8Array.of(192, 168, 1, 7), prefix: 32 },
      { ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 },
      { ip: Uint8Array.of(0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0)), prefix: 32 },
    ]);
  });

  const refusals: [string, string, string, RegExp][] = [
    [
      'syntax',
      '{\n  "version": 2,\n  "rules": [,]\n}',
      'ruleset_corrupt',
      /bad\.json: line 3 column \d+: not valid JSON/,
    ],
    ['no version', '{"rules": []}', 'ruleset_corrupt', /missing rule-set version/],
    ['version 5', '{"version": 5}', 'ruleset_unsupported', /version 5 is newer/],
    [
      'unknown field',
      '{"version": 2, "rules": [{"domains": ["a"]}]}',
      'ruleset_corrupt',
      /rules\[0\]\.domains: unknown field/,
    ],
    [
      'a port',
      '{"version": 2, "rules": [{"domain": "a", "port": [443]}]}',
      'ruleset_unsupported',
      /rules\[0\]\.port: the item port/,
    ],
    [
      'logical',
      '{"version": 2, "rules": [{"type": "logical", "mode": "or", "rules": []}]}',
      'ruleset_unsupported',
      /rules\[0\]: a logical rule/,
    ],
    [
      'inverted domains',
      '{"version": 2, "rules": [{"domain": "a", "invert": true}]}',
      'ruleset_unsupported',
      /rules\[0\] is inverted/,
    ],
    [
      'domains and IPs',
      '{"version": 2, "rules": [{"domain": "a"}, {"ip_cidr": "1.2.3.4"}]}',
      'ruleset_unsupported',
      /rules\[1\] is an ip_cidr rule but rules\[0\] is a domain rule/,
    ],
    [
      'both in a rule',
      '{"version": 2, "rules": [{"domain": "a", "ip_cidr": "1.2.3.4"}]}',
      'ruleset_unsupported',
      /both domain and ip_cidr/,
    ],
    ['empty rule', '{"version": 2, "rules": [{}]}', 'ruleset_corrupt', /rules\[0\] has no condition/],
    [
      'bad CIDR',
      '{"version": 2, "rules": [{"ip_cidr": ["1.2.3.4/33"]}]}',
      'ruleset_corrupt',
      /ip_cidr\[0\]: "1\.2\.3\.4\/33" is not/,
    ],
    [
      'empty suffix',
      '{"version": 2, "rules": [{"domain_suffix": [""]}]}',
      'ruleset_unsupported',
      /domain_suffix\[0\]: an empty name/,
    ],
  ];
  test.each(refusals)('refuses %s, saying where', (_what, json, code, message) => {
    const err = refusal(() => readRuleSet(text.encode(json), 'bad.json'));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(/^bad\.json: /);
    expect(err.message).toMatch(message);
  });
});

describe('binary refusals name the file and the byte', () => {
  test('items a list cannot hold are refused by name', () => {
    // A process_name item (11) with one string, after the domain item.
    const body = domainBody(['a.com'], [], false, [11, 1, 4, ...Buffer.from('curl')]);
    const err = refusal(() => readRuleSet(srsFile(body), 'p.srs'));
    expect(err.code).toBe('ruleset_unsupported');
    expect(err.message).toMatch(
      /^p\.srs: rule 0 has the item process_name \(type 11\) at byte \d+ of the decompressed data/,
    );
  });

  test('a logical rule, an AdGuard item, an unknown item and a newer version', () => {
    expect(
      refusal(() => readRuleSet(srsFile(Uint8Array.of(1, 1, 1, 0, 0, 0xff, 0)), 'l.srs')).message,
    ).toMatch(/l\.srs: rule 0 at byte 1 of the decompressed data is a logical rule/);
    expect(refusal(() => readRuleSet(srsFile(Uint8Array.of(1, 0, 16, 0)), 'g.srs')).message).toMatch(
      /g\.srs: rule 0 has the item adguard_domain \(type 16\) at byte 2 /,
    );
    const unknown = refusal(() => readRuleSet(srsFile(Uint8Array.of(1, 0, 99, 0xff, 0)), 'u.srs'));
    expect(unknown.code).toBe('ruleset_corrupt');
    expect(unknown.message).toMatch(/u\.srs: corrupt rule-set at byte 2 .*unknown item type 99/);
    expect(refusal(() => readRuleSet(srsFile(Uint8Array.of(0), 5), 'v.srs')).message).toMatch(
      /v\.srs: rule-set version 5 at byte 3/,
    );
  });

  test('counts that cannot fit are refused before anything is allocated for them', () => {
    // 2^32 rules; a keyword item claiming 2^40 strings; an IP set claiming 2^62 ranges.
    const cases: [number[], RegExp][] = [
      [[0x80, 0x80, 0x80, 0x80, 0x10], /byte 0 .*rule count 4294967296 does not fit/],
      [[1, 0, 3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20], /byte 3 .*string count 1099511627776 does not fit/],
      [[1, 0, 6, 1, 0x40, 0, 0, 0, 0, 0, 0, 0], /byte 4 .*IP range count 4611686018427388000 does not fit/],
    ];
    for (const [body, message] of cases) {
      const err = refusal(() => readRuleSet(srsFile(Uint8Array.from(body)), 'big.srs'));
      expect(err.code).toBe('ruleset_corrupt');
      expect(err.message).toMatch(message);
    }
  });

  test('a zlib bomb is refused at the decompressed size cap', () => {
    const bomb = srsFile(new Uint8Array(40 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    expect(refusal(() => readRuleSet(bomb, 'bomb.srs')).message).toMatch(
      /bomb\.srs: .*byte 4.*more than 33554432 bytes/,
    );
  });

  test('truncated zlib data and a file that is not a rule-set', () => {
    const good = writeSrs({ code: 'G', rules: [rule(DomainType.Full, 'a.b')] }, { version: 2 });
    expect(refusal(() => readRuleSet(good.subarray(0, good.length - 3), 't.srs')).message).toMatch(
      /t\.srs: corrupt rule-set at byte 4.*ends early/,
    );
    expect(refusal(() => readRuleSet(Uint8Array.of(0x53, 0x52), 's.srs')).message).toMatch(
      /s\.srs: at byte 0: neither a binary rule-set/,
    );
    expect(refusal(() => readRuleSet(Uint8Array.of(0xff, 0xfe, 0), 'b.srs')).message).toMatch(
      /b\.srs: at byte 0/,
    );
  });

  test('a domain matcher with a broken trie is refused with the byte of the part at fault', () => {
    // Keys "moc.a" and "moc.b": the node after "moc." has the children a, b (the last two labels).
    const body = domainBody(['a.com', 'b.com'], [], false);
    const bad = body.slice();
    bad[bad.length - 4] = 0x62;
    bad[bad.length - 3] = 0x61;
    const err = refusal(() => readRuleSet(srsFile(bad), 'trie.srs'));
    expect(err.message).toMatch(
      /trie\.srs: corrupt rule-set at byte \d+ .*domain matcher: labels of node \d+ are not in ascending order/,
    );
  });

  test('writing refuses values sing-box would read differently', () => {
    for (const value of ['', '.example.com', 'a\nb']) {
      const err = refusal(() =>
        writeSrs({ code: 'W', rules: [rule(DomainType.RootDomain, value)] }, { version: 2 }),
      );
      expect(err.code).toBe('export_unsupported');
      expect(err.message).toMatch(/list W: rule 0/);
    }
    expect(refusal(() => writeSrs({ code: 'I', cidrs: [], inverseMatch: true }, { version: 2 })).code).toBe(
      'export_unsupported',
    );
  });
});

describe.skipIf(!hasGeoCorpora)('one real list by hand', () => {
  test("geosite google: the .srs reads back with its domains, and sing-box's suffix semantics hold", () => {
    const source = readFileSync(resolve(geoCorpora, 'upstream/dlc.dat'));
    const dat = GeoDat.fromBytes(source, 'dlc.dat');
    const google = dat.readSite(dat.get('google'));
    const back = siteOf(writeSrs(google, { version: 2 }), 'geosite-google.srs');
    const matcher = SiteMatcher.compile([back]);
    expect(matcher.matchCodes('www.google.com')).toEqual(['GOOGLE']);
    expect(matcher.matchCodes('google.com')).toEqual(['GOOGLE']);
    expect(matcher.matchCodes('notgoogle.com')).toEqual([]);
  });
});
