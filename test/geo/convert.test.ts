// geo convert's core: round trips of every real dlc.dat list and the real geoip lists through each
// one-list format and back to a .dat, rule by rule, with the losses each format's documented rules
// predict compared (both ways) with what actually disappeared; format detection; refusals.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeMrs } from '../../src/geo/formats/mihomo/index.js';
import {
  CidrSet,
  type ConvertFormat,
  type ConvertResult,
  convertLists,
  DomainType,
  describeAccount,
  detectFormat,
  encodeGeoIpList,
  encodeGeoSiteList,
  formatCidr,
  GeoDat,
  type IpList,
  type ListAccount,
  type LossCounts,
  listCodeOfFile,
  readInput,
  type SelectedList,
  type SiteList,
  type SiteRule,
  selectLists,
  targetFormat,
  writeConverted,
  writeSrs,
} from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora, UPSTREAM_GEOIP_FILES } from './support/corpora.js';
import { geoError } from './support/geo-error.js';

const enc = new TextEncoder();
const TYPE_NAME = ['keyword', 'regexp', 'domain', 'full'];
const rule = (type: DomainType, value: string, attrs: string[] = []): SiteRule => ({
  type,
  value,
  attributes: attrs.map((key) => ({ key, value: true })),
});
const keyOf = (r: SiteRule) => `${TYPE_NAME[r.type]}:${r.value}`;

/** Converts the lists to `to`, reads every file back and converts them to one .dat. */
function throughFormat(
  lists: readonly SelectedList[],
  to: ConvertFormat,
): { there: ConvertResult; back: Map<string, SiteList | IpList> } {
  const there = convertLists(lists, { to });
  const inputs = there.files.map((f) => readInput(f.bytes, f.fileName));
  const again = convertLists(selectLists(inputs), { to: 'dat' });
  const dat = GeoDat.fromBytes((again.files[0] as { bytes: Uint8Array }).bytes, 'back.dat');
  const back = new Map<string, SiteList | IpList>();
  for (const [code, entries] of dat.lists()) {
    const entry = entries[0] as (typeof entries)[0];
    back.set(code, dat.kind === 'ip' ? dat.readIp(entry) : dat.readSite(entry));
  }
  return { there, back };
}

// ---- What each format holds of a site list, restated from docs/geo.md ("Converting between
// formats") independently of the code: the rules read back, in order when the format keeps order.

/** The subdomain-only regexp a mihomo `.x` entry stands for; its domain, or undefined. */
function subDomainOf(r: SiteRule): string | undefined {
  if (r.type !== DomainType.Regex) return undefined;
  const m = /^\^\.\+\\\.((?:[a-z0-9_-]|\\\.)+)\$$/.exec(r.value);
  return m ? (m[1] as string).replaceAll('\\.', '.') : undefined;
}

interface Expected {
  /** The rules read back, as `type:value` (sorted when the format does not keep order). */
  readonly back: string[];
  readonly ordered: boolean;
  /** The rules that disappear, as `type:value`, and the counts by kind. */
  readonly gone: string[];
  readonly lost: LossCounts;
}

function expectedSite(list: SiteList, to: ConvertFormat): Expected {
  const rules = list.rules;
  const withAttrs = (keep: (r: SiteRule) => boolean) =>
    rules.filter((r) => keep(r) && r.attributes.length > 0).length;
  const clean = (lost: Record<string, number>): LossCounts =>
    Object.fromEntries(Object.entries(lost).filter(([, n]) => n > 0));
  if (to === 'srs' || to === 'json') {
    // One rule-set rule: attributes dropped, each value once per type, types grouped; the binary
    // form also drops a full name that is a domain rule and sorts names.
    const seen = new Set<string>();
    const gone: string[] = [];
    for (const r of rules) {
      if (seen.has(keyOf(r))) gone.push(keyOf(r));
      seen.add(keyOf(r));
    }
    const duplicate = gone.length;
    const values = (t: DomainType) => [...new Set(rules.filter((r) => r.type === t).map((r) => r.value))];
    const roots = values(DomainType.RootDomain);
    let full = values(DomainType.Full);
    let merged = 0;
    let names = [...roots];
    if (to === 'srs') {
      const under = full.filter((v) => roots.includes(v));
      merged = under.length;
      for (const v of under) gone.push(`full:${v}`);
      full = full.filter((v) => !roots.includes(v)).sort();
      names = roots.sort();
    }
    const back = [
      ...full.map((v) => `full:${v}`),
      ...names.map((v) => `domain:${v}`),
      ...values(DomainType.Plain).map((v) => `keyword:${v}`),
      ...values(DomainType.Regex).map((v) => `regexp:${v}`),
    ];
    return {
      back,
      ordered: true,
      gone,
      lost: clean({ attributes: withAttrs(() => true), duplicate, merged }),
    };
  }
  if (to === 'list' || to === 'yaml' || to === 'mrs') {
    // Entries: full -> `x`, domain -> `+.x`, a `^.+\.x$` regexp -> `.x`; keywords and every other
    // regexp dropped; values lower case.
    const held = (r: SiteRule) =>
      r.type === DomainType.Full || r.type === DomainType.RootDomain || subDomainOf(r) !== undefined;
    const gone = rules.filter((r) => !held(r)).map(keyOf);
    const keyword = rules.filter((r) => r.type === DomainType.Plain).length;
    const regexp = rules.filter((r) => r.type === DomainType.Regex && !held(r)).length;
    const kept = rules.filter(held).map((r) => ({ ...r, value: r.value.toLowerCase() }));
    const attributes = withAttrs(held);
    if (to !== 'mrs') {
      return { back: kept.map(keyOf), ordered: true, gone, lost: clean({ keyword, regexp, attributes }) };
    }
    // .mrs: a set of names, one rule per name: `x` and `+.x` (or `.x`) of a name fold into one.
    const forms = new Map<string, Set<string>>();
    let entries = 0;
    for (const r of kept) {
      const domain = subDomainOf(r) ?? r.value;
      const form = r.type === DomainType.Full ? 'exact' : r.type === DomainType.RootDomain ? 'tree' : 'sub';
      const f = forms.get(domain) ?? new Set<string>();
      if (f.has(form)) gone.push(keyOf(r));
      f.add(form);
      forms.set(domain, f);
      entries++;
    }
    const back: string[] = [];
    let distinct = 0;
    for (const [domain, f] of forms) {
      distinct += f.size;
      const exact = f.has('exact');
      const tree = f.has('tree') || (exact && f.has('sub'));
      if (tree) {
        back.push(`domain:${domain}`);
        if (f.has('exact') && f.has('tree')) gone.push(`full:${domain}`);
      } else back.push(exact ? `full:${domain}` : `regexp:^.+\\.${domain.replaceAll('.', '\\.')}$`);
    }
    return {
      back: back.sort(),
      ordered: false,
      gone,
      lost: clean({
        keyword,
        regexp,
        attributes,
        duplicate: entries - distinct,
        merged: distinct - forms.size,
      }),
    };
  }
  // dat and text hold everything.
  return { back: rules.map(keyOf), ordered: true, gone: [], lost: {} };
}

/** The multiset difference a - b. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const k of b) left.set(k, (left.get(k) ?? 0) + 1);
  const out: string[] = [];
  for (const k of a) {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(k);
  }
  return out;
}

const sum = (lost: LossCounts) =>
  (lost.keyword ?? 0) + (lost.regexp ?? 0) + (lost.duplicate ?? 0) + (lost.merged ?? 0);

describe.skipIf(!hasGeoCorpora)('round trips on the real dlc.dat: dat -> FORMAT -> dat', () => {
  const bytes = hasGeoCorpora ? readFileSync(resolve(geoCorpora, 'upstream/dlc.dat')) : new Uint8Array();
  const lists = hasGeoCorpora ? selectLists([readInput(bytes, 'dlc.dat')]) : [];

  test.each(['srs', 'json', 'mrs', 'yaml', 'list', 'text'] as const)(
    'every one of the 1536 lists through %s keeps every rule the format holds, and loses exactly what its rules say',
    (to) => {
      expect(lists.length).toBe(1536);
      const { there, back } = throughFormat(lists, to);
      const totals: Record<string, number> = {};
      let noFile = 0;
      lists.forEach((selected, i) => {
        const list = selected.item.list as SiteList;
        const account = there.accounts[i] as ListAccount;
        const expected = expectedSite(list, to);
        expect(account.code).toBe(list.code);
        expect(account.lost, `${list.code} -> ${to}: the account`).toEqual(expected.lost);
        expect(account.rules).toBe(list.rules.length);
        const read = back.get(list.code) as SiteList | undefined;
        if (!read) {
          // Only an .mrs the list left nothing for is not written.
          expect([to, account.written, account.file], list.code).toEqual(['mrs', 0, false]);
          expect(expected.back).toEqual([]);
          noFile++;
          return;
        }
        const got = read.rules.map(keyOf);
        // Rule by rule: exactly what the format holds (and, in text, the attributes too).
        expect(expected.ordered ? got : [...got].sort(), `${list.code} -> ${to}`).toEqual(expected.back);
        if (to === 'text') expect(read.rules, list.code).toEqual(list.rules);
        expect(account.written).toBe(got.length);
        // Both ways: what disappeared is what the documented rules predict, and nothing appeared.
        // (mihomo entries are lower case; regexps pass through as they are.)
        const mihomo = to === 'mrs' || to === 'list' || to === 'yaml';
        const original = list.rules.map((r) =>
          keyOf(mihomo && r.type !== DomainType.Regex ? { ...r, value: r.value.toLowerCase() } : r),
        );
        expect(minus(original, got).sort(), `${list.code} -> ${to}: gone`).toEqual([...expected.gone].sort());
        expect(minus(got, original), `${list.code} -> ${to}: appeared`).toEqual([]);
        expect(sum(account.lost)).toBe(list.rules.length - got.length);
        for (const [k, n] of Object.entries(account.lost)) totals[k] = (totals[k] ?? 0) + n;
      });
      // dlc.dat (SOURCE.txt): 374 regexp rules, no keywords; the mihomo forms drop every regexp.
      if (to === 'mrs' || to === 'list' || to === 'yaml') expect(totals.regexp).toBe(374);
      else expect(totals.regexp ?? 0).toBe(0);
      if (to === 'text') expect(totals).toEqual({});
      else expect(totals.attributes).toBeGreaterThan(0);
      console.log(`dlc.dat -> ${to} -> dat: ${JSON.stringify(totals)}; lists without a file: ${noFile}`);
    },
    180_000,
  );

  test('srs version 1 reads back the same rules as version 2', () => {
    const some = lists.filter((l) => ['GOOGLE', 'CN', 'CATEGORY-ADS-ALL'].includes(l.item.list.code));
    const v1 = convertLists(some, { to: 'srs', version: 1 });
    const v2 = convertLists(some, { to: 'srs', version: 2 });
    v1.files.forEach((f, i) => {
      expect(f.bytes[3]).toBe(1);
      const a = readInput(f.bytes, f.fileName).read(f.code);
      const b = readInput((v2.files[i] as typeof f).bytes, f.fileName).read(f.code);
      expect(a).toEqual(b);
    });
  });

  test('dat -> dat with --codes keeps the lists selected, code@attr the rules carrying the attribute', () => {
    const input = readInput(bytes, 'dlc.dat');
    const picked = selectLists([input], ['google@ads', 'CN']);
    const out = convertLists(picked, { to: 'dat' });
    const dat = GeoDat.fromBytes((out.files[0] as { bytes: Uint8Array }).bytes, 'x.dat');
    expect([...dat.lists().keys()]).toEqual(['GOOGLE', 'CN']);
    const google = dat.readSite(dat.get('google'));
    expect(google.rules.length).toBeGreaterThan(0);
    expect(google.rules.every((r) => r.attributes.some((a) => a.key === 'ads'))).toBe(true);
    expect(dat.readSite(dat.get('cn')).rules).toEqual((input.read('cn').list as SiteList).rules);
  });
});

describe.skipIf(!hasGeoCorpora)('round trips on the real geoip files', () => {
  test.each(['srs', 'json', 'mrs', 'yaml', 'list', 'text'] as const)(
    'every list through %s: the same networks (merged in .srs and .mrs), the merge counted',
    (to) => {
      let lists = 0;
      for (const file of UPSTREAM_GEOIP_FILES) {
        const input = readInput(readFileSync(resolve(geoCorpora, 'upstream', file)), file);
        const selected = selectLists([input]);
        const { there, back } = throughFormat(selected, to);
        selected.forEach((s, i) => {
          const list = s.item.list as IpList;
          const read = back.get(list.code) as IpList;
          const account = there.accounts[i] as ListAccount;
          const set = new CidrSet();
          for (const c of list.cidrs) set.addCidr(c);
          const merged = set.build();
          const want = to === 'srs' || to === 'mrs' ? merged : list.cidrs;
          const text = (cidrs: IpList['cidrs']) => cidrs.map((c) => formatCidr(c.ip, c.prefix));
          expect(text(read.cidrs), `${file} ${list.code} -> ${to}`).toEqual(text(want));
          expect(read.inverseMatch).toBe(false);
          const lost = list.cidrs.length - want.length;
          expect(account.lost).toEqual(lost > 0 ? { merged: lost } : {});
          expect(account.written).toBe(read.cidrs.length);
          lists++;
        });
      }
      expect(lists).toBe(6);
    },
    60_000,
  );
});

describe('format detection', () => {
  const site: SiteList = {
    code: 'EX',
    rules: [rule(DomainType.RootDomain, 'example.com', ['ads']), rule(DomainType.Full, 'www.example.org')],
  };
  const ip: IpList = {
    code: 'LAN',
    cidrs: [{ ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 }],
    inverseMatch: false,
  };
  const one = (list: SiteList | IpList, to: ConvertFormat) => {
    const item = 'cidrs' in list ? { kind: 'ip' as const, list } : { kind: 'site' as const, list };
    return (convertLists([{ source: 'x', stem: 'ex', item }], { to }).files[0] as { bytes: Uint8Array })
      .bytes;
  };

  test('every readable format is told from its content, whatever the file is called', () => {
    expect(detectFormat(encodeGeoSiteList([site]), 'a')).toBe('dat');
    expect(detectFormat(encodeGeoIpList([ip]), 'a')).toBe('dat');
    expect(detectFormat(writeSrs(site, { version: 2 }), 'a')).toBe('srs');
    expect(detectFormat(one(site, 'json'), 'a.srs')).toBe('json');
    expect(detectFormat(writeMrs(ip), 'a.json')).toBe('mrs');
    expect(detectFormat(one(site, 'yaml'), 'a')).toBe('yaml');
    expect(detectFormat(one(site, 'list'), 'a.txt')).toBe('list');
    expect(detectFormat(one(site, 'text'), 'a.list')).toBe('text');
    expect(detectFormat(one(ip, 'text'), 'a')).toBe('text');
    expect(detectFormat(one(ip, 'list'), 'a.list')).toBe('text');
    // Bare names: source syntax for a domain-list-community file (no extension), mihomo otherwise.
    expect(detectFormat(enc.encode('# x\nexample.com\n'), 'data/example')).toBe('text');
    expect(detectFormat(enc.encode('example.com\n'), 'example.list')).toBe('list');
    // Empty: an empty list in mihomo text or the text format (as each writes one), read as a site list.
    expect(detectFormat(enc.encode(''), 'empty.list')).toBe('list');
    expect(detectFormat(enc.encode('# none\n'), 'data/empty')).toBe('text');
    expect(readInput(enc.encode(''), 'data/empty').read('empty')).toEqual({
      kind: 'site',
      list: { code: 'EMPTY', rules: [] },
    });
    // A .dat site and IP file read as their kinds.
    expect(readInput(encodeGeoIpList([ip]), 'ip.dat').read('lan')).toEqual({ kind: 'ip', list: ip });
    expect(readInput(encodeGeoSiteList([site]), 'site.dat').read('ex')).toEqual({ kind: 'site', list: site });
  });

  test('unknown content is refused naming the file', () => {
    const cases: [Uint8Array, string, RegExp][] = [
      [new Uint8Array(0), 'empty.bin', /^empty\.bin: empty file, no format to tell$/],
      [Uint8Array.of(0xff, 0x00, 0x13), 'junk.bin', /^junk\.bin: unknown format at byte 0 \(0xff\)/],
      [
        enc.encode('# only comments\n\n'),
        'c.conf',
        /^c\.conf: no entries \(only blank or comment lines\), no format to tell$/,
      ],
      [
        enc.encode('ipset=/example.com/x\n'),
        'd.conf',
        /^d\.conf: looks like a dnsmasq configuration, which branchgate writes but does not read$/,
      ],
      [
        enc.encode('! EX: written by branchgate\n||example.com^\n'),
        'a.txt',
        /^a\.txt: looks like AdGuard Home filtering rules/,
      ],
      [enc.encode('table inet fw {\n}\n'), 'f.nft', /^f\.nft: looks like an nftables ruleset/],
    ];
    for (const [bytes, name, message] of cases) {
      const err = geoError(() => detectFormat(bytes, name));
      expect(err.code).toBe('format_unknown');
      expect(err.message).toMatch(message);
    }
    // A damaged .dat is reported as one, with its byte offset.
    const dat = encodeGeoSiteList([site]);
    const cut = geoError(() => readInput(dat.subarray(0, dat.length - 3), 'cut.dat'));
    expect(cut.code).toBe('dat_corrupt');
    expect(cut.message).toMatch(/^cut\.dat: corrupt data at byte \d+/);
  });

  test('the text format: comments, attributes as dump prints them, CIDR lines; bad lines by file:line', () => {
    const text = enc.encode(
      '# list\nexample.com @ads\nfull:www.example.org # trailing\nkeyword:ads @x=3 @y=false\nregexp:^a\\d+\\.b$\n',
    );
    expect(readInput(text, 'data/my-list').read('MY-LIST')).toEqual({
      kind: 'site',
      list: {
        code: 'MY-LIST',
        rules: [
          rule(DomainType.RootDomain, 'example.com', ['ads']),
          rule(DomainType.Full, 'www.example.org'),
          {
            type: DomainType.Plain,
            value: 'ads',
            attributes: [
              { key: 'x', value: 3n },
              { key: 'y', value: false },
            ],
          },
          rule(DomainType.Regex, '^a\\d+\\.b$'),
        ],
      },
    });
    const ipText = enc.encode('10.0.0.0/8 // lan\n192.168.1.1\n2001:db8::1/32\n');
    expect(readInput(ipText, 'lan.txt').read('lan')).toEqual({
      kind: 'ip',
      list: {
        code: 'LAN',
        cidrs: [
          { ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 },
          { ip: Uint8Array.of(192, 168, 1, 1), prefix: 32 },
          { ip: Uint8Array.of(0x20, 1, 0x0d, 0xb8, ...new Array(12).fill(0)), prefix: 32 },
        ],
        inverseMatch: false,
      },
    });
    const refusals: [string, string][] = [
      ['full:a.example\ninclude:other\n', 'x:2: include lines need the other list files'],
      ['full:a.example\nfull:b_c.example\n', 'x:2: full value "b_c.example" holds characters other than'],
      ['full:a.example @ads &other\n', 'x:1: affiliation "&other" adds to another list'],
      ['regexp:(\n', 'x:1: regexp value "(" is not a valid regexp'],
      [
        '10.0.0.0/8\nexample.com\n',
        'x:2: invalid CIDR or IP address "example.com" (read as an IP list, told from line 1)',
      ],
    ];
    for (const [source, message] of refusals) {
      expect(geoError(() => readInput(enc.encode(source), 'x', { from: 'text' })).message).toContain(message);
    }
  });
});

describe('conversion rules and refusals', () => {
  const site: SiteList = {
    code: 'ADS',
    rules: [
      rule(DomainType.RootDomain, 'ads.example', ['ads']),
      rule(DomainType.Full, 'ads.example'),
      rule(DomainType.Plain, 'tracker'),
      rule(DomainType.Regex, '^ad\\d+\\.example$'),
      rule(DomainType.RootDomain, 'ads.example'),
    ],
  };
  const ip: IpList = {
    code: 'PRIVATE',
    cidrs: [
      { ip: Uint8Array.of(10, 0, 0, 0), prefix: 9 },
      { ip: Uint8Array.of(10, 128, 0, 0), prefix: 9 },
    ],
    inverseMatch: false,
  };
  const selected = (list: SiteList | IpList, source = 'in.dat'): SelectedList => ({
    source,
    stem: list.code.toLowerCase(),
    item: 'cidrs' in list ? { kind: 'ip', list } : { kind: 'site', list },
  });

  test('a list of one kind is refused by a format of the other, naming the file and the list', () => {
    const toNft = geoError(() => convertLists([selected(site, 'sites.dat')], { to: 'nftables' }));
    expect(toNft.message).toBe('sites.dat: list ADS is a site list; nftables holds IP lists only');
    for (const to of ['dnsmasq', 'adguard'] as const) {
      expect(geoError(() => convertLists([selected(ip, 'ips.dat')], { to })).message).toBe(
        `ips.dat: list PRIVATE is an IP list; ${to === 'dnsmasq' ? 'dnsmasq' : 'AdGuard Home'} holds site lists only`,
      );
    }
    const mixed = geoError(() =>
      convertLists([selected(site, 'a.srs'), selected(ip, 'b.srs')], { to: 'dat' }),
    );
    expect(mixed.message).toBe(
      'b.srs: list PRIVATE is an IP list but a.srs: ADS is a site list; one .dat holds one kind',
    );
  });

  test('dnsmasq and AdGuard accounts: dropped kinds, widened full names, attributes', () => {
    const dnsmasq = convertLists([selected(site)], { to: 'dnsmasq', dnsmasq: { ipset: 'x' } });
    expect(new TextDecoder().decode(dnsmasq.files[0]?.bytes)).toBe(
      'ipset=/ads.example/x\nipset=/ads.example/x\nipset=/ads.example/x\n',
    );
    expect(dnsmasq.accounts[0]?.lost).toEqual({ keyword: 1, regexp: 1, attributes: 1, widened: 1 });
    expect(describeAccount(dnsmasq.accounts[0] as ListAccount, 'dnsmasq')).toBe(
      'ADS -> dnsmasq: 1 keyword rule dropped; 1 regexp rule dropped; attributes dropped from 1 rule; 1 full rule written as a domain rule (subdomains match too)',
    );
    const adguard = convertLists([selected(site)], { to: 'adguard' });
    expect(adguard.accounts[0]?.lost).toEqual({ attributes: 1 });
    expect(new TextDecoder().decode(adguard.files[0]?.bytes)).toBe(
      '! ADS: written by branchgate geo export --format adguard\n||ads.example^\n|ads.example^\n*tracker*\n/^ad\\d+\\.example$/\n||ads.example^\n',
    );
    const srs = convertLists([selected(site)], { to: 'srs' });
    expect(srs.accounts[0]).toMatchObject({
      written: 3,
      lost: { attributes: 1, duplicate: 1, merged: 1 },
      file: true,
    });
    const mrs = convertLists([selected(ip)], { to: 'mrs' });
    expect(mrs.accounts[0]).toMatchObject({ rules: 2, written: 1, lost: { merged: 1 } });
  });

  test('inverse_match: kept by dat, srs and json; refused by the formats that cannot hold it', () => {
    const inverse: IpList = { ...ip, inverseMatch: true };
    for (const to of ['dat', 'srs', 'json'] as const) {
      const out = convertLists([selected(inverse)], { to });
      const back = readInput((out.files[0] as { bytes: Uint8Array }).bytes, `private.${to}`).read('private');
      expect(back.kind === 'ip' && back.list.inverseMatch, to).toBe(true);
    }
    for (const to of ['mrs', 'yaml', 'list', 'text', 'nftables'] as const) {
      const err = geoError(() => convertLists([selected(inverse, 'inv.dat')], { to }));
      expect(err.code, to).toBe('export_unsupported');
      expect(err.message, to).toMatch(/^inv\.dat: list PRIVATE has inverse_match/);
    }
  });

  test('a list .mrs can hold nothing of gets no file, and the account says so', () => {
    const regexps: SiteList = { code: 'RX', rules: [rule(DomainType.Regex, '^a$')] };
    const out = convertLists([selected(regexps), selected(site)], { to: 'mrs' });
    expect(out.files.map((f) => f.fileName)).toEqual(['ads.mrs']);
    expect(describeAccount(out.accounts[0] as ListAccount, 'mrs')).toBe(
      'RX -> mihomo .mrs: 1 regexp rule dropped; nothing left to write: no file written',
    );
  });

  test('codes: from the file name (upper case, less geosite-/geoip- and the extension), or given', () => {
    expect(listCodeOfFile('rules/geosite-google.srs')).toBe('GOOGLE');
    expect(listCodeOfFile('geoip-cn.mrs')).toBe('CN');
    expect(listCodeOfFile('data/category-ads-all')).toBe('CATEGORY-ADS-ALL');
    expect(listCodeOfFile('C:\\x\\private.txt')).toBe('PRIVATE');
    const json = convertLists([selected(site)], { to: 'json' }).files[0] as { bytes: Uint8Array };
    expect(readInput(json.bytes, 'dir/geosite-ads.json').codes).toEqual(['ADS']);
    expect(readInput(json.bytes, 'dir/x.json', { code: 'mine' }).codes).toEqual(['MINE']);
    const wrong = geoError(() => readInput(json.bytes, 'dir/x.json').read('ads'));
    expect(wrong.code).toBe('code_not_found');
    expect(wrong.message).toContain('dir/x.json: no list "ads": the file holds one list, X');
    expect(geoError(() => readInput(encodeGeoSiteList([site]), 'a.dat', { code: 'x' })).code).toBe('usage');
    // A code that cannot name a file is refused rather than written outside the directory.
    const bad = { ...selected({ ...site, code: '../ETC' }), stem: '../etc' };
    expect(geoError(() => convertLists([bad], { to: 'srs' })).message).toContain('cannot name a file');
  });

  test('selection: unknown codes, attributes on IP lists, duplicates in a .dat', () => {
    const input = readInput(encodeGeoSiteList([site]), 'a.dat');
    expect(geoError(() => selectLists([input], ['nope'])).message).toBe(
      'no list "nope" in a.dat (run `branchgate geo info` on a .dat to list its codes)',
    );
    const ips = readInput(encodeGeoIpList([ip]), 'i.dat');
    expect(geoError(() => selectLists([ips], ['private@ads'])).message).toBe(
      'i.dat: private@ads: IP lists have no attributes',
    );
    const twice = geoError(() =>
      convertLists([selected(site, 'a.srs'), selected(site, 'b.srs')], { to: 'dat' }),
    );
    expect(twice.message).toContain('list ADS comes twice (a.srs and b.srs)');
    expect(
      selectLists([input], ['ads@ads']).map((s) => [s.stem, (s.item.list as SiteList).rules.length]),
    ).toEqual([['ads@ads', 1]]);
  });

  test('the target format: --to, else the extension; refused when neither tells', () => {
    expect(targetFormat('SRS', 'x')).toBe('srs');
    expect(targetFormat(undefined, 'out/cn.yml')).toBe('yaml');
    expect(targetFormat(undefined, 'cn.txt')).toBe('list');
    expect(geoError(() => targetFormat(undefined, 'out/')).message).toMatch(
      /^no format for "out\/": give --to/,
    );
    expect(geoError(() => targetFormat(undefined, '-')).message).toMatch(/^no format for stdout/);
    expect(geoError(() => targetFormat('clash', 'x')).message).toMatch(/^unknown format "clash"/);
  });
});

describe('writing the outputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'branchgate-convert-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const site: SiteList = { code: 'A', rules: [rule(DomainType.RootDomain, 'a.example')] };
  const result = (codes: string[], to: ConvertFormat) =>
    convertLists(
      codes.map((code) => ({
        source: 'in',
        stem: code.toLowerCase(),
        item: { kind: 'site', list: { ...site, code } },
      })),
      { to },
    );

  test('one list to a file, several into a directory (created), one text list to stdout', () => {
    expect(writeConverted(result(['A'], 'srs'), join(dir, 'a.srs'), 'srs', false).paths).toEqual([
      join(dir, 'a.srs'),
    ]);
    const many = writeConverted(result(['A', 'B'], 'yaml'), join(dir, 'out/nested'), 'yaml', false);
    expect(many.paths).toEqual([join(dir, 'out/nested/a.yaml'), join(dir, 'out/nested/b.yaml')]);
    expect(readdirSync(join(dir, 'out/nested')).sort()).toEqual(['a.yaml', 'b.yaml']);
    // An existing directory takes even one list as a file inside it.
    mkdirSync(join(dir, 'd'));
    expect(writeConverted(result(['A'], 'text'), join(dir, 'd'), 'text', false).paths).toEqual([
      join(dir, 'd/a'),
    ]);
    expect(new TextDecoder().decode(writeConverted(result(['A'], 'list'), '-', 'list', true).stdout)).toBe(
      '+.a.example\n',
    );
  });

  test('binary formats never go to a terminal; several lists never to stdout', () => {
    for (const to of ['srs', 'mrs', 'dat'] as const) {
      expect(geoError(() => writeConverted(result(['A'], to), '-', to, true)).message).toContain(
        'is binary and stdout is a terminal',
      );
      expect(writeConverted(result(['A'], to), '-', to, false).stdout?.length).toBeGreaterThan(0);
    }
    expect(geoError(() => writeConverted(result(['A', 'B'], 'json'), '-', 'json', false)).message).toContain(
      '2 lists, one sing-box source JSON file each: give a directory as -o',
    );
  });

  test('a .dat cannot be written over a directory; the directory is left as it was', () => {
    mkdirSync(join(dir, 'keep'));
    writeFileSync(join(dir, 'keep/x'), 'old');
    expect(
      geoError(() => writeConverted(result(['A'], 'dat'), join(dir, 'keep'), 'dat', false)).message,
    ).toContain('is a directory');
    expect(readFileSync(join(dir, 'keep/x'), 'utf8')).toBe('old');
  });
});
