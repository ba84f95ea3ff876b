// The matchers on real data: the whole domain-list-community tree and real CIDR lists, compared
// with the linear-scan references on names and addresses drawn from the data itself (with random
// subdomains, parents and near misses). Needs ../shared/corpora beside the repository.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  buildIpDat,
  buildSiteDat,
  DomainType,
  GeoDat,
  type IpList,
  type SiteList,
} from '../../src/geo/index.js';
import { IpMatcher } from '../../src/geo/ip/ip-matcher.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';
import { ipReference, siteReference } from './support/matcher-reference.js';

describe.skipIf(!hasGeoCorpora)('site matcher on the real domain-list-community tree', () => {
  let lists: SiteList[];
  let matcher: SiteMatcher;

  beforeAll(() => {
    const { bytes } = buildSiteDat(resolve(geoCorpora, 'domain-list-community/data'));
    const dat = GeoDat.fromBytes(bytes);
    lists = dat.entries.map((e) => dat.readSite(e));
    matcher = SiteMatcher.compile(lists);
  });

  test('all 1536 lists compile and the real regexps run natively but one that backtracks exponentially', () => {
    expect(matcher.size).toBe(1536);
    expect(matcher.regexCount).toBeGreaterThan(100);
    // `(.+\.)*` splits a dotted name into iterations in exponentially many ways (see site-regex-safety).
    expect(matcher.re2jsPatterns).toEqual(['^(.+\\.)*zh\\.okaapps\\.com$']);
  });

  test('well-known names match the lists they are in', () => {
    expect(matcher.matchCodes('www.google.com')).toContain('GOOGLE');
    expect(matcher.matchCodes('WWW.BAIDU.COM.')).toContain('CN');
    expect(matcher.matchCodes('badbaidu.com')).not.toContain('BAIDU');
    expect(matcher.matchCodes('no-such-name.invalid')).toEqual(['PRIVATE']); // domain:invalid
    expect(matcher.matchCodes('zz-no-such-name.zz')).toEqual([]);
  });

  test('600 names drawn from the data agree with a linear scan of every rule', () => {
    const random = seededRandom(20261122);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const rules = lists.flatMap((l) => l.rules);
    const names = rules.filter((r) => r.type === DomainType.RootDomain || r.type === DomainType.Full);
    const labels = ['www', 'a', 'cdn1', 'x-y', 'api', 'ads', 'm', '0'];
    const queries: string[] = [];
    while (queries.length < 600) {
      const value = pick(names).value;
      const shape = Math.floor(random() * 7);
      if (shape === 0) queries.push(value);
      else if (shape === 1) queries.push(`${pick(labels)}.${value}`);
      else if (shape === 2) queries.push(`${pick(labels)}.${pick(labels)}.${value}`);
      else if (shape === 3)
        queries.push(value.slice(value.indexOf('.') + 1)); // the parent
      else if (shape === 4)
        queries.push(`${pick(labels)}${value}`); // not on a label boundary
      else if (shape === 5) queries.push(`${value.toUpperCase()}.`);
      else {
        // Shapes the real regexps look for: a word, some digits, a real TLD.
        const tld = pick(['com', 'net', 'cc', 'xyz', 'icu', 'one', 'buzz', 'life', 'cn']);
        queries.push(
          `${pick(['javdb', '18tv', 'fulibl', 'aipai', '13mei', 'gaoap', 'x'])}${Math.floor(random() * 300)}.${tld}`,
        );
      }
    }
    const reference = siteReference(lists);
    let hits = 0;
    for (const q of queries) {
      const got = matcher.matchCodes(q);
      if (got.length > 0) hits++;
      expect(got, q).toEqual(reference(q));
    }
    expect(hits).toBeGreaterThan(300);
  });

  test('code@attr selectors on the real data agree with the reference', () => {
    const selectors = ['google@ads', 'category-ads-all', 'geolocation-!cn@cn', 'cn', 'apple@cn'];
    const m = SiteMatcher.compile(lists, selectors);
    expect(m.codes).toEqual(['GOOGLE@ads', 'CATEGORY-ADS-ALL', 'GEOLOCATION-!CN@cn', 'CN', 'APPLE@cn']);
    const reference = siteReference(lists, selectors);
    const attrNames = lists
      .flatMap((l) => l.rules)
      .filter((r) => r.attributes.length > 0 && r.type !== DomainType.Regex)
      .map((r) => r.value);
    const random = seededRandom(7);
    for (let k = 0; k < 1000; k++) {
      const q = `${random() < 0.5 ? 'www.' : ''}${attrNames[Math.floor(random() * attrNames.length)]}`;
      expect(m.matchCodes(q), q).toEqual(reference(q));
    }
  });
});

describe.skipIf(!hasGeoCorpora)('IP matcher on real CIDR lists', () => {
  let lists: IpList[];
  let matcher: IpMatcher;

  beforeAll(() => {
    const loyal = resolve(geoCorpora, 'cidr/loyalsoldier-geoip/text');
    const v2fly = resolve(geoCorpora, 'cidr/v2fly-geoip/text');
    const { bytes } = buildIpDat([
      loyal,
      ...['de', 'jp', 'private', 'test'].map((c) => resolve(v2fly, `${c}.txt`)),
    ]);
    const dat = GeoDat.fromBytes(bytes);
    lists = dat.entries.map((e) => dat.readIp(e));
    // One inverse list as routers write `geoip:!private`.
    const priv = lists.find((l) => l.code === 'PRIVATE') as IpList;
    lists.push({ code: 'NOT-PRIVATE', cidrs: priv.cidrs, inverseMatch: true });
    matcher = IpMatcher.compile(lists);
  });

  test('well-known addresses', () => {
    expect(matcher.matchCodes('192.168.1.1')).toEqual(['PRIVATE']);
    expect(matcher.matchCodes('::ffff:192.168.1.1')).toEqual(['PRIVATE']);
    expect(matcher.matchCodes('1.1.1.1')).toContain('CLOUDFLARE');
    expect(matcher.matchCodes('1.1.1.1')).toContain('NOT-PRIVATE');
  });

  test('1000 addresses in, at the edges of and around the real ranges agree with a linear scan', () => {
    const random = seededRandom(99);
    const cidrs = lists.flatMap((l) => l.cidrs);
    const reference = ipReference(lists);
    const out = new Uint32Array(matcher.size);
    let hits = 0;
    for (let k = 0; k < 1000; k++) {
      const bytes = new Uint8Array(16);
      let address: Uint8Array;
      const shape = Math.floor(random() * 5);
      if (shape === 4) {
        address = new Uint8Array(random() < 0.5 ? 4 : 16).map(() => Math.floor(random() * 256));
      } else {
        const c = cidrs[Math.floor(random() * cidrs.length)] as (typeof cidrs)[number];
        address = Uint8Array.from(c.ip);
        const bits = address.length * 8;
        // 0: first address, 1: last, 2: random inside, 3: one past the last.
        for (let bit = c.prefix; bit < bits; bit++) {
          const set = shape === 0 ? false : shape === 2 ? random() < 0.5 : true;
          if (set) address[bit >> 3] = (address[bit >> 3] as number) | (0x80 >> (bit & 7));
        }
        if (shape === 3) {
          for (let i = address.length - 1; i >= 0; i--) {
            address[i] = ((address[i] as number) + 1) & 255;
            if (address[i] !== 0) break;
          }
        }
      }
      if (address.length === 4 && random() < 0.2) {
        bytes.set([0xff, 0xff], 10);
        bytes.set(address, 12);
        address = bytes; // the same address, IPv4-mapped
      }
      const text = address.length === 4 ? address.join('.') : v6Text(address);
      const expected = reference(address);
      if (expected.some((c) => c !== 'NOT-PRIVATE')) hits++;
      const n = matcher.match(text, out);
      expect(
        [...out.subarray(0, n)].map((i) => matcher.codes[i]),
        text,
      ).toEqual(expected);
    }
    expect(hits).toBeGreaterThan(500);
  });
});

function v6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let k = 0; k < 16; k += 2)
    groups.push((((bytes[k] as number) << 8) | (bytes[k + 1] as number)).toString(16));
  return groups.join(':');
}
