// mihomo rule providers (text, YAML, .mrs): zstd frames any decoder reads, entry syntax and what
// is refused, and on the real data (every domain-list-community list of dlc.dat, the real geoip
// files) round trips rule by rule, byte-identical .mrs rewrites, and the same names matched.
import { resolve } from 'node:path';
import { decompress } from 'fzstd';
import { describe, expect, test } from 'vitest';
import { GeoDat } from '../../src/geo/dat/geo-dat.js';
import {
  heldEntries,
  mrsPayload,
  type ProviderList,
  readProvider,
  unzstd,
  writeMrs,
  writeProviderText,
  zstdFrame,
} from '../../src/geo/formats/mihomo/index.js';
import { CidrSet } from '../../src/geo/ip/cidr-set.js';
import { bytesToBigint, formatCidr, formatIPv4, formatIPv6 } from '../../src/geo/ip/ip-address.js';
import { IpMatcher } from '../../src/geo/ip/ip-matcher.js';
import { type Cidr, DomainType, type IpList, type SiteList, type SiteRule } from '../../src/geo/model.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';
import { geoError } from './support/geo-error.js';
import { MihomoDomainSet, PlainIpEval, PlainSiteEval } from './support/mihomo-reference.js';
import { ipFcsHex, siteFcsHex, siteStreamHex } from './support/mihomo-zstd-fixtures.js';

const enc = new TextEncoder();
const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const rule = (type: DomainType, value: string): SiteRule => ({ type, value, attributes: [] });

function site(p: ProviderList): SiteList {
  if (p.kind !== 'site') throw new Error(`expected a site list, got ${p.kind}`);
  return p.list;
}

function ip(p: ProviderList): IpList {
  if (p.kind !== 'ip') throw new Error(`expected an IP list, got ${p.kind}`);
  return p.list;
}

describe('zstd frames', () => {
  test('zstdFrame: single segment with the content size, Raw blocks of at most 128 KiB, checksum; fzstd reads it', () => {
    for (const n of [0, 1, 255, 256, 65791, 65792, 131072, 131073, 300000]) {
      const content = Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 255);
      const frame = zstdFrame(content);
      expect(Array.from(frame.subarray(0, 4))).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
      const fhd = frame[4] as number;
      expect(fhd & 0x20).toBe(0x20); // single segment: the window is the content size
      expect(fhd & 0x04).toBe(0x04); // content checksum
      const fcsBytes = [1, 2, 4, 8][fhd >> 6] as number;
      let fcs = 0;
      for (let k = 0; k < fcsBytes; k++) fcs += (frame[5 + k] as number) * 256 ** k;
      expect(fcsBytes === 2 ? fcs + 256 : fcs).toBe(n);
      let p = 5 + fcsBytes;
      const sizes: number[] = [];
      for (;;) {
        const h = (frame[p] as number) | ((frame[p + 1] as number) << 8) | ((frame[p + 2] as number) << 16);
        expect((h >> 1) & 3).toBe(0); // Raw
        sizes.push(h >>> 3);
        p += 3 + (h >>> 3);
        if (h & 1) break;
      }
      expect(p + 4).toBe(frame.length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(131072);
      expect(sizes.length).toBe(Math.max(1, Math.ceil(n / 131072)));
      expect(Buffer.compare(decompress(frame), content)).toBe(0);
      expect(Buffer.compare(unzstd(frame, 'f.mrs'), content)).toBe(0);
    }
  });

  test('a damaged byte inside a Raw block is caught by the content checksum, at its offset', () => {
    const frame = zstdFrame(enc.encode('MRS payload bytes'));
    frame[10] = (frame[10] as number) ^ 1;
    const err = geoError(() => unzstd(frame, 'x.mrs'));
    expect(err.code).toBe('mrs_corrupt');
    expect(err.message).toBe(`x.mrs byte ${frame.length - 4}: content checksum mismatch`);
  });

  test('frames made by the zstd CLI (compressed blocks, with and without the content size) are read', () => {
    const expected: SiteRule[] = [];
    for (let i = 0; i < 40; i++) expected.push(rule(DomainType.Full, `host${i}.example.com`));
    expected.push(rule(DomainType.RootDomain, 'example.org'), rule(DomainType.Regex, '^.+\\.example\\.net$'));
    const sorted = (rules: readonly SiteRule[]) => rules.map((r) => `${r.type}:${r.value}`).sort();
    for (const h of [siteFcsHex, siteStreamHex]) {
      const list = site(readProvider(hex(h), 'fixture.mrs'));
      expect(list.code).toBe('FIXTURE');
      expect(sorted(list.rules)).toEqual(sorted(expected));
      expect(mrsPayload(list)).toEqual(unzstd(hex(h), 'fixture.mrs'));
    }
    const cidrs = ip(readProvider(hex(ipFcsHex), 'fixture.mrs', 'ipcidr')).cidrs;
    expect(cidrs.length).toBe(31);
    expect(cidrs[0]).toEqual({ ip: Uint8Array.of(10, 0, 0, 0), prefix: 16 });
    expect(cidrs[29]).toEqual({ ip: Uint8Array.of(10, 58, 0, 0), prefix: 16 });
    expect(cidrs[30]).toEqual({
      ip: Uint8Array.of(0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0)),
      prefix: 32,
    });
  });
});

describe('entries, forms and refusals', () => {
  test('text: comments skipped, +. / . / plain entries, lower-cased; behavior told from the entries', () => {
    const text = '# a comment\n// another\n\n+.Example.COM\r\n.sub.example.org\n  www.example.net  \n';
    const p = readProvider(enc.encode(text), 'rules/my-list.txt');
    expect(p.form).toBe('text');
    expect(p.list).toEqual({
      code: 'MY-LIST',
      rules: [
        rule(DomainType.RootDomain, 'example.com'),
        rule(DomainType.Regex, '^.+\\.sub\\.example\\.org$'),
        rule(DomainType.Full, 'www.example.net'),
      ],
    });
    const cidrs = ip(readProvider(enc.encode('10.1.2.3/8\n2001:db8::1/32\n'), 'x.list')).cidrs;
    expect(cidrs).toEqual([
      { ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 },
      { ip: Uint8Array.of(0x20, 1, 0x0d, 0xb8, ...new Array<number>(12).fill(0)), prefix: 32 },
    ]);
  });

  test('YAML: the payload list, plain and quoted items, comments; form told from the header', () => {
    const yaml = "# head\npayload:\n  - '+.a.com'\n  - \"b.com\" # note\n  - c.com\n  -\n- 'it''s.com'\n";
    const e = geoError(() => readProvider(enc.encode(yaml), 'p.yaml'));
    expect(e.message).toBe(
      `p.yaml:7: character "'" is not allowed in a domain (read as domain, told from line 3): "it's.com"`,
    );
    const p = readProvider(enc.encode(yaml.replace("- 'it''s.com'\n", '')), 'p.yaml');
    expect(p.form).toBe('yaml');
    expect(site(p).rules).toEqual([
      rule(DomainType.RootDomain, 'a.com'),
      rule(DomainType.Full, 'b.com'),
      rule(DomainType.Full, 'c.com'),
    ]);
    expect(site(readProvider(enc.encode('payload: []\n'), 'e.yaml', 'domain')).rules).toEqual([]);
  });

  test('refusals name the file and the line', () => {
    const cases: [string, string, string][] = [
      ['a.com\nb.com\n*.c.com\n', 'w.txt:3: wildcard "*" is not supported', 'source_syntax'],
      ['a.com\nb..com\n', 'w.txt:2: empty label', 'source_syntax'],
      ['a.com\nDOMAIN-SUFFIX,b.com\n', 'w.txt:2: character "," is not allowed', 'source_syntax'],
      ['a+b.com\n', 'w.txt:1: "+" is only allowed as the "+." prefix', 'source_syntax'],
      ['1.2.3.0/24\n1.2.3.4\n', 'w.txt:2: an ipcidr entry needs a /prefix', 'source_syntax'],
      ['1.2.3.0/24\n1.2.3.0/08\n', 'w.txt:2: bad prefix length', 'source_syntax'],
      ['1.2.3.0/24\nfe80::1%eth0/64\n', 'w.txt:2: not an IPv4 or IPv6 network', 'source_syntax'],
      ['x: 1\npayload:\n  - a.com\n', 'w.txt:1: character ":" is not allowed', 'source_syntax'],
      ['payload:\n  - a.com\nrules: 3\n', 'w.txt:3: expected a "- entry" list item', 'source_syntax'],
      ['payload:\n  - [a.com]\n', 'w.txt:2: entry may not start with "["', 'source_syntax'],
      ['# only comments\n', 'w.txt:2: end of file and no entries, so no telling domain', 'source_empty'],
      ['a.com\n\uFFFD.com\n', 'w.txt:2: not valid UTF-8 text', 'source_syntax'],
    ];
    for (const [text, message, code] of cases) {
      const err = geoError(() => readProvider(enc.encode(text), 'w.txt'));
      expect(err.message, text).toContain(message);
      expect(err.code, text).toBe(code);
    }
    // The behavior given by the caller wins over the guess.
    expect(geoError(() => readProvider(enc.encode('a.com\n'), 'w.txt', 'ipcidr')).message).toBe(
      'w.txt:1: an ipcidr entry needs a /prefix: "a.com"',
    );
    // Invalid UTF-8 bytes are refused naming the line.
    expect(geoError(() => readProvider(Uint8Array.of(0x61, 0x0a, 0xff, 0x0a), 'b.txt')).message).toBe(
      'b.txt:2: not valid UTF-8 text',
    );
  });

  test('.mrs header: behavior must match the hint; classical, other versions and raw payloads refused', () => {
    const list: SiteList = { code: 'T', rules: [rule(DomainType.Full, 'a.com')] };
    const payload = mrsPayload(list);
    expect(geoError(() => readProvider(writeMrs(list), 't.mrs', 'ipcidr')).message).toBe(
      't.mrs: decompressed byte 4: behavior is domain, expected ipcidr',
    );
    const classical = payload.slice();
    classical[4] = 2;
    expect(geoError(() => readProvider(zstdFrame(classical), 't.mrs')).message).toBe(
      't.mrs: decompressed byte 4: behavior classical is not supported',
    );
    const v2 = payload.slice();
    v2[3] = 2;
    expect(geoError(() => readProvider(zstdFrame(v2), 't.mrs')).message).toBe(
      't.mrs: decompressed byte 3: .mrs format version 2 is not supported (only 1)',
    );
    expect(geoError(() => readProvider(payload, 't.mrs')).message).toBe(
      't.mrs byte 0: not a zstd frame (bad magic number)',
    );
    expect(geoError(() => readProvider(payload, 't.bin')).message).toBe(
      't.bin byte 0: an .mrs payload that is not zstd-compressed',
    );
    const trailing = new Uint8Array(payload.length + 3);
    trailing.set(payload);
    expect(geoError(() => readProvider(zstdFrame(trailing), 't.mrs')).message).toBe(
      `t.mrs: decompressed byte ${payload.length}: 3 bytes after the rule set`,
    );
  });

  test('length fields are checked against the bytes left before anything is allocated', () => {
    const list: SiteList = { code: 'T', rules: [rule(DomainType.Full, 'a.com')] };
    const payload = mrsPayload(list);
    const view = new DataView(payload.buffer);
    const huge = payload.slice();
    new DataView(huge.buffer).setBigInt64(22, 1n << 40n, false); // leaves length
    expect(geoError(() => readProvider(zstdFrame(huge), 'h.mrs')).message).toBe(
      `h.mrs: decompressed byte 22: leaves length 1099511627776 needs 8796093022208 bytes but only ${payload.length - 30} remain`,
    );
    const negative = payload.slice();
    new DataView(negative.buffer).setBigInt64(13, -1n, false); // extra length
    expect(geoError(() => readProvider(zstdFrame(negative), 'h.mrs')).message).toContain(
      'h.mrs: decompressed byte 13: extra length is -1, outside 0..',
    );
    expect(view.getBigInt64(5, false)).toBe(1n);
    const ranges = mrsPayload({
      code: 'I',
      cidrs: [{ ip: Uint8Array.of(1, 2, 3, 0), prefix: 24 }],
      inverseMatch: false,
    });
    new DataView(ranges.buffer).setBigInt64(22, 1n << 40n, false); // range count
    expect(geoError(() => readProvider(zstdFrame(ranges), 'i.mrs')).message).toBe(
      'i.mrs: decompressed byte 22: range count 1099511627776 needs 35184372088832 bytes but only 32 remain',
    );
  });

  test('a domain set whose bitmap points a label back up the tree (a cycle) is refused', () => {
    // Root: a leaf with no labels; node 1 owns labels "a" and "b", leading to nodes 1 and 2.
    const payload = new Uint8Array(21 + 1 + 8 + 8 + 8 + 8 + 8 + 2);
    const view = new DataView(payload.buffer);
    payload.set([0x4d, 0x52, 0x53, 1, 0]);
    view.setBigInt64(5, 1n, false);
    payload[21] = 1;
    view.setBigInt64(22, 1n, false);
    view.setBigUint64(30, 0b111n, false); // leaves: nodes 0, 1, 2
    view.setBigInt64(38, 1n, false);
    view.setBigUint64(46, 0b11001n, false); // bitmap: 1 | 0 0 1 | 1
    view.setBigInt64(54, 2n, false);
    payload.set([0x61, 0x62], 62);
    expect(geoError(() => readProvider(zstdFrame(payload), 'c.mrs')).message).toBe(
      'c.mrs: decompressed byte 62: label 0 of node 1 points back to node 1',
    );
  });

  test('a domain set whose keys would take far more bytes than its labels is refused', () => {
    // A chain of 512 labels "a", every node a leaf: keys a, aa, ... 512 a's, 131,328 bytes in all.
    const n = 512;
    const words = (bits: number) => Math.floor(bits / 64) + 1;
    const size = 21 + 1 + 8 + words(n) * 8 + 8 + words(2 * n) * 8 + 8 + n;
    const payload = new Uint8Array(size);
    const view = new DataView(payload.buffer);
    payload.set([0x4d, 0x52, 0x53, 1, 0]);
    view.setBigInt64(5, 1n, false);
    payload[21] = 1;
    let p = 22;
    const bitmap = (count: number, set: (i: number) => boolean) => {
      view.setBigInt64(p, BigInt(words(count)), false);
      p += 8;
      for (let w = 0; w < words(count); w++, p += 8) {
        let v = 0n;
        for (let b = 0; b < 64; b++) if (w * 64 + b <= count && set(w * 64 + b)) v |= 1n << BigInt(b);
        view.setBigUint64(p, v, false);
      }
    };
    bitmap(n, (i) => i > 0); // leaves: nodes 1..512
    bitmap(2 * n, (i) => i % 2 === 1 || i === 2 * n); // each node: one label, then its 1
    view.setBigInt64(p, BigInt(n), false);
    payload.fill(0x61, p + 8);
    expect(geoError(() => readProvider(zstdFrame(payload), 'chain.mrs')).message).toBe(
      `chain.mrs: decompressed byte ${p}: 512 labels spell 131328 bytes of keys (more than 69632)`,
    );
  });

  test('a zstd header claiming a huge size, or blocks that would, is refused before decoding', () => {
    // Frame content size 2^40 (8-byte field), single segment.
    const big = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0);
    expect(geoError(() => readProvider(big, 'z.mrs')).message).toBe(
      'z.mrs byte 5: frame content size 1099511627776 exceeds the limit',
    );
    // A 2 GiB window and 200 RLE blocks of 128 KiB each: 25 MiB from 0.8 KB.
    const rle: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa8];
    for (let k = 0; k < 200; k++) {
      const h = (131072 << 3) | (1 << 1) | (k === 199 ? 1 : 0);
      rle.push(h & 255, (h >> 8) & 255, (h >> 16) & 255, 0x41);
    }
    expect(geoError(() => readProvider(Uint8Array.from(rle), 'z.mrs')).message).toMatch(
      /^z\.mrs byte \d+: decompressed size could exceed the 16777216-byte limit$/,
    );
  });

  test("what mihomo matches: the set our writer builds answers like mihomo's own DomainSet tests", () => {
    const entries = [
      'baidu.com',
      'google.com',
      'www.google.com',
      'test.a.net',
      'test.a.oc',
      '.qq.com',
      '+.cn',
    ];
    const list = site(readProvider(enc.encode(entries.join('\n')), 'set.txt'));
    const set = new MihomoDomainSet(mrsPayload(list));
    for (const name of ['test.cn', 'cn', 'test.a.net', 'www.qq.com', 'google.com', 'WWW.Google.com']) {
      expect(set.has(name), name).toBe(true);
    }
    for (const name of ['qq.com', 'www.baidu.com', 'a.net', 'xcn', 'oogle.com'])
      expect(set.has(name), name).toBe(false);
  });

  test('writers: keyword and regexp rules dropped and counted, attributes dropped, values lower-cased', () => {
    const list: SiteList = {
      code: 'MIX',
      rules: [
        { type: DomainType.RootDomain, value: 'Example.com', attributes: [{ key: 'ads', value: true }] },
        rule(DomainType.Plain, 'tracker'),
        rule(DomainType.Regex, '^ad[0-9]+\\.net$'),
        rule(DomainType.Regex, '^.+\\.sub\\.org$'),
        rule(DomainType.Full, 'www.example.com'),
      ],
    };
    expect(heldEntries(list)).toEqual({
      entries: [
        { domain: 'example.com', form: 'tree' },
        { domain: 'sub.org', form: 'sub' },
        { domain: 'www.example.com', form: 'exact' },
      ],
      keyword: 1,
      regexp: 1,
      attributes: 1,
    });
    expect(writeProviderText(list, 'text')).toBe('+.example.com\n.sub.org\nwww.example.com\n');
    expect(writeProviderText(list, 'yaml')).toBe(
      "payload:\n  - '+.example.com'\n  - '.sub.org'\n  - 'www.example.com'\n",
    );
    // example.com is two keys (example.com, +.example.com) read back as one domain rule; the
    // count field says 3, as many rules as the file reads back as.
    const back = site(readProvider(writeMrs(list), 'mix.mrs'));
    expect(back.rules).toEqual([
      rule(DomainType.Regex, '^.+\\.sub\\.org$'),
      rule(DomainType.RootDomain, 'example.com'),
      rule(DomainType.Full, 'www.example.com'),
    ]);
    expect(new DataView(mrsPayload(list).buffer).getBigInt64(5, false)).toBe(3n);
  });

  test('writers refuse what a provider cannot hold', () => {
    const onlyKeywords: SiteList = { code: 'KW', rules: [rule(DomainType.Plain, 'ads')] };
    expect(writeProviderText(onlyKeywords, 'text')).toBe('');
    expect(geoError(() => writeMrs(onlyKeywords)).message).toBe(
      'list KW has no rule a mihomo domain set can hold; mihomo cannot load an empty .mrs',
    );
    const star: SiteList = { code: 'S', rules: [rule(DomainType.Full, 'a*.com')] };
    expect(geoError(() => writeProviderText(star, 'yaml')).message).toBe(
      'list S rule 1 (full:a*.com) cannot be a mihomo entry: wildcard "*" is not supported',
    );
    const inverse: IpList = {
      code: 'INV',
      cidrs: [{ ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 }],
      inverseMatch: true,
    };
    expect(geoError(() => writeMrs(inverse)).code).toBe('export_unsupported');
    expect(geoError(() => writeProviderText(inverse, 'text')).code).toBe('export_unsupported');
    const mapped: IpList = {
      code: 'MAP',
      cidrs: [{ ip: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 0), prefix: 120 }],
      inverseMatch: false,
    };
    expect(geoError(() => writeMrs(mapped)).message).toContain('reaches into ::ffff:0:0/96');
    expect(writeProviderText(mapped, 'text')).toBe('::ffff:102:300/120\n');
    expect(ip(readProvider(enc.encode('::ffff:102:300/120\n'), 'm.txt')).cidrs).toEqual(mapped.cidrs);
  });
});

/** Independently: the rules a text or YAML provider holds, in order. */
function textRules(list: SiteList): SiteRule[] {
  return list.rules
    .filter((r) => r.type === DomainType.Full || r.type === DomainType.RootDomain)
    .map((r) => rule(r.type, r.value.toLowerCase()));
}

/** Independently: what an .mrs holds, one rule per value (domain wins over full), as sorted text. */
function mrsRules(list: SiteList): string[] {
  const byValue = new Map<string, DomainType>();
  for (const r of textRules(list)) {
    if (byValue.get(r.value) !== DomainType.RootDomain) byValue.set(r.value, r.type);
  }
  return [...byValue].map(([v, t]) => `${t}:${v}`).sort();
}

const cidrText = (cidrs: readonly Cidr[]) => cidrs.map((c) => formatCidr(c.ip, c.prefix));
const asText = (rules: readonly SiteRule[]) => rules.map((r) => `${r.type}:${r.value}`).sort();

describe.skipIf(!hasGeoCorpora)('real data: every dlc.dat list and the real geoip files', () => {
  const dlc = () => GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat'));

  test('site lists -> text / YAML / .mrs -> read back: exactly the rules each form holds; .mrs rewrites byte-identical', () => {
    const dat = dlc();
    let lists = 0;
    let regexps = 0;
    let keywords = 0;
    let droppedRegexps = 0;
    let droppedKeywords = 0;
    let noMrs = 0;
    for (const [code, entries] of dat.lists()) {
      for (const entry of entries) {
        const list = dat.readSite(entry);
        lists++;
        regexps += list.rules.filter((r) => r.type === DomainType.Regex).length;
        keywords += list.rules.filter((r) => r.type === DomainType.Plain).length;
        const held = heldEntries(list);
        droppedRegexps += held.regexp;
        droppedKeywords += held.keyword;
        const expected = textRules(list);
        expect(held.entries.length + held.keyword + held.regexp, code).toBe(list.rules.length);
        for (const form of ['text', 'yaml'] as const) {
          const text = writeProviderText(list, form);
          const back = readProvider(enc.encode(text), `${code}.${form}`, 'domain', code);
          expect(back.form, code).toBe(form);
          expect(site(back).rules, `${code} ${form}`).toEqual(expected);
        }
        if (expected.length === 0) {
          expect(geoError(() => writeMrs(list)).code).toBe('export_unsupported');
          noMrs++;
          continue;
        }
        const mrs = writeMrs(list);
        const back = site(readProvider(mrs, `${code}.mrs`));
        expect(back.code).toBe(code);
        expect(asText(back.rules), `${code} mrs`).toEqual(mrsRules(list));
        expect(Buffer.compare(writeMrs(back), mrs), `${code} rewrite`).toBe(0);
        // The count field is the number of rules read back.
        const payload = unzstd(mrs, code);
        const count = new DataView(payload.buffer, payload.byteOffset).getBigInt64(5, false);
        expect(count).toBe(BigInt(back.rules.length));
      }
    }
    // SOURCE.txt: 1536 lists, 374 regexp rules, no keywords; all of them dropped and counted.
    expect([lists, regexps, keywords]).toEqual([1536, 374, 0]);
    expect([droppedRegexps, droppedKeywords]).toEqual([regexps, keywords]);
    console.log(
      `dlc.dat: ${lists} lists; ${droppedRegexps} regexp rules dropped; ${noMrs} lists of only regexps have no .mrs`,
    );
  }, 180_000);

  test('IP lists -> text / YAML keep every CIDR; .mrs keeps the merged set; rewrites byte-identical', () => {
    for (const file of ['geoip-cn.dat', 'geoip-de.dat', 'geoip-jp.dat', 'geoip-only-cn-private.dat']) {
      const dat = GeoDat.open(resolve(geoCorpora, 'upstream', file));
      for (const entry of dat.entries) {
        const list = dat.readIp(entry);
        for (const form of ['text', 'yaml'] as const) {
          const back = ip(readProvider(enc.encode(writeProviderText(list, form)), `${list.code}.${form}`));
          expect(cidrText(back.cidrs), `${file} ${list.code} ${form}`).toEqual(cidrText(list.cidrs));
        }
        const mrs = writeMrs(list);
        const back = ip(readProvider(mrs, `${list.code}.mrs`, 'ipcidr'));
        const merged = new CidrSet();
        for (const c of list.cidrs) merged.addCidr(c);
        expect(cidrText(back.cidrs), `${file} ${list.code} mrs`).toEqual(cidrText(merged.build()));
        expect(back.inverseMatch).toBe(false);
        expect(Buffer.compare(writeMrs(back), mrs), `${file} ${list.code} rewrite`).toBe(0);
      }
    }
  }, 120_000);

  test('names matched: the dat list (SiteMatcher) and each read-back form agree but for keyword/regexp-only names', () => {
    const dat = dlc();
    let names = 0;
    let onlyRegexp = 0;
    for (const [code, entries] of dat.lists()) {
      const list = dat.readSite(entries[0] as (typeof entries)[number]);
      const want = SiteMatcher.compile([list]);
      const others = list.rules.filter((r) => r.type === DomainType.Plain || r.type === DomainType.Regex);
      const kr = others.length > 0 ? SiteMatcher.compile([{ code, rules: others }]) : undefined;
      const forms: PlainSiteEval[] = [
        new PlainSiteEval(site(readProvider(enc.encode(writeProviderText(list, 'text')), 't', 'domain'))),
        new PlainSiteEval(site(readProvider(enc.encode(writeProviderText(list, 'yaml')), 'y', 'domain'))),
      ];
      let mihomo: MihomoDomainSet | undefined;
      if (textRules(list).length > 0) {
        const mrs = writeMrs(list);
        forms.push(new PlainSiteEval(site(readProvider(mrs, 'm'))));
        mihomo = new MihomoDomainSet(unzstd(mrs, 'm'));
      }
      const generated = new Set<string>();
      for (const r of list.rules) {
        const v = r.type === DomainType.Regex ? r.value.replace(/[^a-z0-9.-]/g, '') : r.value;
        generated
          .add(v)
          .add(`www.${v}`)
          .add(`x${v}`)
          .add(`${v}.zz`)
          .add(v.slice(v.indexOf('.') + 1));
      }
      for (const name of generated) {
        if (name === '') continue;
        names++;
        const expected = want.matchCodes(name).length > 0;
        const byOthers = kr !== undefined && kr.matchCodes(name).length > 0;
        for (const form of forms) {
          const got = form.has(name);
          if (got !== expected) {
            // Only a name that nothing but a keyword or regexp rule matched may be missing.
            expect({ code, name, got, expected, byOthers }).toEqual({
              code,
              name,
              got: false,
              expected: true,
              byOthers: true,
            });
            onlyRegexp++;
          }
        }
        if (mihomo)
          expect(mihomo.has(name), `${code} ${name} mihomo`).toBe((forms[2] as PlainSiteEval).has(name));
      }
    }
    expect(onlyRegexp).toBeGreaterThan(0);
    console.log(
      `${names} names checked; ${onlyRegexp} (name, form) misses, each matched only by a regexp rule`,
    );
  }, 180_000);

  test('addresses matched: the dat list (IpMatcher) and each read-back form agree', () => {
    for (const file of ['geoip-cn.dat', 'geoip-de.dat', 'geoip-jp.dat', 'geoip-private.dat']) {
      const dat = GeoDat.open(resolve(geoCorpora, 'upstream', file));
      const list = dat.readIp(dat.entries[0] as (typeof dat.entries)[number]);
      const want = IpMatcher.compile([list]);
      const forms = [
        new PlainIpEval(ip(readProvider(enc.encode(writeProviderText(list, 'text')), 't'))),
        new PlainIpEval(ip(readProvider(enc.encode(writeProviderText(list, 'yaml')), 'y'))),
        new PlainIpEval(ip(readProvider(writeMrs(list), 'm'))),
      ];
      let hits = 0;
      for (const c of list.cidrs) {
        const v6 = c.ip.length === 16;
        const start = bytesToBigint(c.ip);
        const end = start + (1n << BigInt(c.ip.length * 8 - c.prefix)) - 1n;
        const max = v6 ? (1n << 128n) - 1n : 0xffffffffn;
        for (const a of [start - 1n, start, (start + end) / 2n, end, end + 1n]) {
          if (a < 0n || a > max) continue;
          const text = v6 ? formatIPv6(a) : formatIPv4(Number(a));
          const expected = want.matchCodes(text).length > 0;
          if (expected) hits++;
          for (const form of forms) expect(form.has(v6, a), `${file} ${text}`).toBe(expected);
        }
      }
      expect(hits).toBeGreaterThanOrEqual(list.cidrs.length * 3);
    }
  }, 120_000);
});
