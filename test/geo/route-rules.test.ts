// Reading rule lists and their entries as v2ray 4.34's config loader does (infra/conf/router.go):
// the forms of a rule list, Go's case-insensitive keys, string lists, prefixes, ParseIP, and
// what is refused with the rule and field named.
import { describe, expect, test } from 'vitest';
import { DomainType } from '../../src/geo/model.js';
import {
  parseDomainEntry,
  parseIpEntry,
  parseRouteRules,
  routeRulesFrom,
} from '../../src/geo/route/index.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('rule lists', () => {
  test('a bare array, {"rules"} and a whole config (routing.rules, then the old routing.settings.rules)', () => {
    const r = { type: 'field', ip: ['10.0.0.0/8'], outboundTag: 'a' };
    expect(routeRulesFrom([r], 'x').rules[0]?.where).toBe('x: rules[0]');
    expect(routeRulesFrom({ rules: [r] }, 'x').rules).toHaveLength(1);
    const config = {
      outbounds: [{ protocol: 'freedom' }],
      routing: { settings: { rules: [{ ...r, outboundTag: 'old' }] }, rules: [r] },
    };
    const set = routeRulesFrom(config, 'x');
    expect(set.rules.map((x) => [x.index, x.outboundTag, x.where])).toEqual([
      [0, 'a', 'x: routing.rules[0]'],
      [1, 'old', 'x: routing.settings.rules[0]'],
    ]);
  });

  test('keys match ignoring case, as Go decodes JSON; unknown keys are ignored with a warning', () => {
    const set = routeRulesFrom([{ TYPE: 'Field', OutboundTag: 'a', DOMAIN: ['x'], ruleTag: 'r' }], 'x');
    expect(set.rules[0]?.outboundTag).toBe('a');
    expect(set.rules[0]?.domain).toEqual([{ kind: 'rule', type: DomainType.Plain, value: 'x' }]);
    expect(set.warnings).toEqual([
      'x: rules[0]: "ruleTag" is not a v2ray 4.34 rule field; ignored, as v2ray ignores it',
    ]);
  });

  test('string lists: an array, or one string split at commas (not trimmed); "domains" after "domain"', () => {
    const [rule] = routeRulesFrom(
      [{ type: 'field', outboundTag: 'a', domains: 'b, c', domain: ['a'] }],
      'x',
    ).rules;
    expect(rule?.domainText).toEqual(['a', 'b', ' c']);
    expect(refusal(() => routeRulesFrom([{ type: 'field', outboundTag: 'a', ip: [1] }], 'x'))).toBe(
      'x: rules[0].ip: expected an array of strings or a comma-separated string',
    );
  });

  test('network: a condition only with entries, holding for TCP when one is exactly "tcp" in any case', () => {
    const tcp = (network: unknown) =>
      routeRulesFrom([{ type: 'field', outboundTag: 'a', network }], 'x').rules[0]?.networkTcp;
    expect(tcp('TCP,udp')).toBe(true);
    expect(tcp('udp, tcp')).toBe(false);
    expect(tcp('')).toBe(false);
    expect(tcp([])).toBeUndefined();
    expect(tcp(null)).toBeUndefined();
  });

  test('domainStrategy: AsIs, AlwaysIP (4.34 routes it as AsIs) and unknown names pass; DNS-resolving ones are refused', () => {
    for (const s of ['AsIs', 'AlwaysIP', 'whatever'])
      expect(routeRulesFrom({ rules: [], domainStrategy: s }, 'x').rules).toEqual([]);
    expect(refusal(() => routeRulesFrom({ routing: { domainStrategy: 'ip_on_demand' } }, 'x'))).toMatch(
      /^x: routing.domainStrategy: IPOnDemand makes v2ray resolve names/,
    );
  });

  test('refusals name the rule and field', () => {
    const one = (rule: object) => refusal(() => routeRulesFrom([rule], 'f.json'));
    expect(one({ outboundTag: 'a', ip: ['1.1.1.1'] })).toBe(
      'f.json: rules[0].type: "" is not a known rule type (v2ray knows only "field")',
    );
    expect(one({ type: 'field', ip: ['1.1.1.1'] })).toBe(
      'f.json: rules[0]: neither outboundTag nor balancerTag is given',
    );
    expect(one({ type: 'field', outboundTag: 7 })).toBe('f.json: rules[0].outboundTag: expected a string');
    expect(one({ type: 'field', outboundTag: 'a', source: ['10.0.0.1'] })).toMatch(
      /^f.json: rules\[0\].source: not supported/,
    );
    expect(one({ type: 'field', outboundTag: 'a', domain: ['full:'] })).toBe(
      'f.json: rules[0].domain[0]: empty full domain in "full:"',
    );
    // Fields without effect in v2ray (empty) pass.
    expect(
      routeRulesFrom([{ type: 'field', outboundTag: 'a', ip: ['::1'], inboundTag: [], attrs: '' }], 'x')
        .rules,
    ).toHaveLength(1);
    expect(refusal(() => parseRouteRules('{"rules":\n [{"a": 1,}]}', 'f.json'))).toMatch(
      /^f.json:2:11: not valid JSON/,
    );
  });
});

describe('domain entries', () => {
  test('prefixes are case-sensitive; an unprefixed entry (even "") is a substring', () => {
    expect(parseDomainEntry('Domain:x.org')).toEqual({
      kind: 'rule',
      type: DomainType.Plain,
      value: 'Domain:x.org',
    });
    expect(parseDomainEntry('')).toEqual({ kind: 'rule', type: DomainType.Plain, value: '' });
    expect(parseDomainEntry('domain:x.org')).toEqual({
      kind: 'rule',
      type: DomainType.RootDomain,
      value: 'x.org',
    });
    expect(parseDomainEntry('full:X.org')).toEqual({ kind: 'rule', type: DomainType.Full, value: 'X.org' });
    expect(parseDomainEntry('keyword:k')).toEqual({ kind: 'rule', type: DomainType.Plain, value: 'k' });
    expect(parseDomainEntry('regexp:^a$')).toEqual({ kind: 'rule', type: DomainType.Regex, value: '^a$' });
  });

  test('dotless: becomes a regexp; a dot in it is refused', () => {
    expect(parseDomainEntry('dotless:')).toEqual({ kind: 'rule', type: DomainType.Regex, value: '^[^.]*$' });
    expect(parseDomainEntry('dotless:ab')).toEqual({
      kind: 'rule',
      type: DomainType.Regex,
      value: '^[^.]*ab[^.]*$',
    });
    expect(() => parseDomainEntry('dotless:a.b')).toThrow(/may not hold a dot/);
  });

  test('geosite: and ext: lists with attributes (trimmed, lower case, empty ones dropped)', () => {
    expect(parseDomainEntry('geosite:cn@ Ads @')).toEqual({
      kind: 'list',
      file: 'geosite.dat',
      code: 'cn',
      attrs: ['ads'],
    });
    expect(parseDomainEntry('ext:my.dat:google@ads')).toEqual({
      kind: 'list',
      file: 'my.dat',
      code: 'google',
      attrs: ['ads'],
    });
    expect(parseDomainEntry('ext-domain:my.dat:x')).toMatchObject({ file: 'my.dat', code: 'x' });
    expect(() => parseDomainEntry('geosite:')).toThrow(/empty list name/);
    expect(() => parseDomainEntry('geosite:@ads')).toThrow(/empty list name/);
    expect(() => parseDomainEntry('ext:a:b:c')).toThrow(/invalid external resource/);
  });
});

describe('ip entries', () => {
  test('networks as ParseIP reads them: host bits kept, an empty mask is the full one, brackets and spaces dropped', () => {
    expect(parseIpEntry('10.1.2.3/8')).toEqual({
      kind: 'cidr',
      cidr: { v6: false, ip: 0x0a010203, prefix: 8 },
    });
    expect(parseIpEntry('10.0.0.0/')).toEqual({
      kind: 'cidr',
      cidr: { v6: false, ip: 0x0a000000, prefix: 32 },
    });
    expect(parseIpEntry('[::1]')).toEqual({ kind: 'cidr', cidr: { v6: true, ip: 1n, prefix: 128 } });
    expect(parseIpEntry(' 10.0.0.1')).toEqual({
      kind: 'cidr',
      cidr: { v6: false, ip: 0x0a000001, prefix: 32 },
    });
    expect(parseIpEntry('10.0.0.0/008')).toMatchObject({ cidr: { prefix: 8 } });
  });

  test('IPv4-mapped IPv6 is IPv4, so its mask may not pass 32', () => {
    expect(parseIpEntry('::ffff:1.2.3.4/24')).toEqual({
      kind: 'cidr',
      cidr: { v6: false, ip: 0x01020304, prefix: 24 },
    });
    expect(() => parseIpEntry('::ffff:0:0/96')).toThrow(/too long/);
  });

  test('refused: leading zeros, signs, domains', () => {
    expect(() => parseIpEntry('010.0.0.1')).toThrow(/not an IP address/);
    expect(() => parseIpEntry('10.0.0.0/+8')).toThrow(/invalid network mask/);
    expect(() => parseIpEntry('example.com')).toThrow(/not an IP address/);
  });

  test('geoip:!CODE is an inverse list; lists are named as v2ray shares them', () => {
    expect(parseIpEntry('geoip:!cn')).toEqual({
      kind: 'list',
      file: 'geoip.dat',
      code: 'cn',
      inverse: true,
      key: 'CN',
    });
    expect(parseIpEntry('ext:a.dat:cn')).toEqual({
      kind: 'list',
      file: 'a.dat',
      code: 'cn',
      inverse: false,
      key: 'A.DAT_CN',
    });
    expect(() => parseIpEntry('geoip:')).toThrow(/empty country code/);
    expect(() => parseIpEntry('ext::cn')).toThrow(/empty file name/);
  });
});
