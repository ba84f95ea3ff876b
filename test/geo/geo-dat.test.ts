import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type ByteSource,
  datDiff,
  datInfo,
  encodeGeoIpList,
  encodeGeoSiteList,
  exportList,
  GeoDat,
  memorySource,
  type SiteList,
} from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';

const v4 = (a: number, b: number, c: number, d: number) => new Uint8Array([a, b, c, d]);
const sites: SiteList[] = [
  {
    code: 'ADS',
    rules: [
      { type: 2, value: 'ads.example', attributes: [{ key: 'ads', value: true }] },
      { type: 3, value: 'www.example.org', attributes: [] },
      { type: 0, value: 'tracker', attributes: [] },
      { type: 1, value: '^ad\\d+\\.example$', attributes: [{ key: 'ads', value: true }] },
    ],
  },
  { code: 'CN', rules: [{ type: 2, value: 'baidu.com', attributes: [{ key: 'level', value: 3n }] }] },
];
/**
 * The bytes as a source that counts what is read (and has no readReusing, so every read is
 * counted as the bytes it asked for).
 */
function countingSource(bytes: Uint8Array): { source: ByteSource; read: () => number; reads: () => number } {
  const inner = memorySource(bytes);
  let read = 0;
  let reads = 0;
  return {
    source: {
      size: inner.size,
      read: (offset, length) => {
        const chunk = inner.read(offset, length);
        read += chunk.length;
        reads++;
        return chunk;
      },
      close: () => inner.close(),
    },
    read: () => read,
    reads: () => reads,
  };
}

const siteDat = () => GeoDat.fromBytes(encodeGeoSiteList(sites), 'sites.dat');
const ipDat = () =>
  GeoDat.fromBytes(
    encodeGeoIpList([
      {
        code: 'PRIVATE',
        cidrs: [
          { ip: v4(10, 0, 0, 0), prefix: 8 },
          { ip: Uint8Array.from([0xfc, ...new Array(15).fill(0)]), prefix: 7 },
        ],
        inverseMatch: false,
      },
    ]),
    'ips.dat',
  );

describe('reader', () => {
  test('indexes entries and tells the kind of file', () => {
    const dat = siteDat();
    expect(dat.kind).toBe('site');
    expect(dat.entries.map((e) => e.code)).toEqual(['ADS', 'CN']);
    expect(dat.find('cn')?.code).toBe('CN');
    expect(ipDat().kind).toBe('ip');
    expect(GeoDat.fromBytes(new Uint8Array(0)).kind).toBe('empty');
  });

  test('an unknown code names the file', () => {
    expect(() => siteDat().get('nope')).toThrowError(
      'sites.dat: no list "nope" (run `branchgate geo info` to list codes)',
    );
  });

  test('info counts rules by type and attributes', () => {
    const info = datInfo(siteDat());
    expect(info.total).toBe(5);
    expect(info.entries[0]).toEqual({
      code: 'ADS',
      count: 4,
      byType: { domain: 1, full: 1, keyword: 1, regexp: 1 },
      withAttributes: 2,
    });
    expect(datInfo(ipDat()).entries[0]).toEqual({
      code: 'PRIVATE',
      count: 2,
      byType: { ipv4: 1, ipv6: 1 },
      inverseMatch: false,
    });
  });

  test('diff lists added, removed and changed codes with their rules', () => {
    const changed: SiteList[] = [
      {
        code: 'ADS',
        rules: [...(sites[0] as SiteList).rules.slice(1), { type: 2, value: 'new.example', attributes: [] }],
      },
      { code: 'JP', rules: [{ type: 2, value: 'yahoo.co.jp', attributes: [] }] },
    ];
    const diff = datDiff(siteDat(), GeoDat.fromBytes(encodeGeoSiteList(changed)));
    expect(diff).toEqual([
      { code: 'ADS', status: 'changed', added: ['domain:new.example'], removed: ['domain:ads.example @ads'] },
      { code: 'CN', status: 'removed', added: [], removed: ['domain:baidu.com @level=3'] },
      { code: 'JP', status: 'added', added: ['domain:yahoo.co.jp'], removed: [] },
    ]);
    expect(datDiff(siteDat(), siteDat())).toEqual([]);
  });
});

describe('export', () => {
  test('text: source syntax, with a code@attr filter', () => {
    expect(exportList(siteDat(), { code: 'ads', to: 'text' }).text).toBe(
      'domain:ads.example @ads\nfull:www.example.org\nkeyword:tracker\nregexp:^ad\\d+\\.example$ @ads\n',
    );
    expect(exportList(siteDat(), { code: 'ads@ads', to: 'text' }).text).toBe(
      'domain:ads.example @ads\nregexp:^ad\\d+\\.example$ @ads\n',
    );
  });

  test('dnsmasq: ipset, nftset and server lines; keyword/regexp skipped and counted', () => {
    expect(exportList(siteDat(), { code: 'ads', to: 'dnsmasq', ipset: 'blocked' })).toEqual({
      text: 'ipset=/ads.example/blocked\nipset=/www.example.org/blocked\n',
      written: 2,
      skipped: 2,
    });
    expect(
      exportList(siteDat(), { code: 'cn', to: 'dnsmasq', nftset: '4#inet#fw#cn4', server: '114.114.114.114' })
        .text,
    ).toBe('nftset=/baidu.com/4#inet#fw#cn4\nserver=/baidu.com/114.114.114.114\n');
    expect(exportList(siteDat(), { code: 'cn', to: 'dnsmasq' }).text).toBe('ipset=/baidu.com/cn\n');
  });

  test('nftables: interval sets per family', () => {
    expect(exportList(ipDat(), { code: 'private', to: 'nftables', table: 'inet fw', set: 'lan' }).text).toBe(
      [
        '# PRIVATE: 1 IPv4 and 1 IPv6 networks; load with: nft -f FILE',
        'table inet fw {',
        '\tset lan4 {',
        '\t\ttype ipv4_addr',
        '\t\tflags interval',
        '\t\telements = {',
        '\t\t\t10.0.0.0/8',
        '\t\t}',
        '\t}',
        '\tset lan6 {',
        '\t\ttype ipv6_addr',
        '\t\tflags interval',
        '\t\telements = {',
        '\t\t\tfc00::/7',
        '\t\t}',
        '\t}',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('formats that do not fit the list kind are refused', () => {
    expect(() => exportList(ipDat(), { code: 'private', to: 'dnsmasq' })).toThrowError(
      'dnsmasq export needs a site list; ips.dat holds IP lists',
    );
    expect(() => exportList(siteDat(), { code: 'cn', to: 'nftables' })).toThrowError(
      'nftables export needs an IP list; sites.dat holds site lists',
    );
    expect(() => exportList(ipDat(), { code: 'private', to: 'nftables', table: 'bad table x' })).toThrowError(
      /--table/,
    );
  });
});

describe('opening', () => {
  test('opening a file of large entries reads a header each, not the entries', () => {
    const lists = ['AA', 'BB', 'CC'].map((code) => ({
      code,
      inverseMatch: false,
      cidrs: Array.from({ length: 10_000 }, (_, k) => ({
        ip: Uint8Array.from([10, (k >> 8) & 255, k & 255, 0]),
        prefix: 24,
      })),
    }));
    const bytes = encodeGeoIpList(lists);
    const counting = countingSource(bytes);
    const dat = GeoDat.fromSource(counting.source, 'big.dat');
    expect(dat.entries.map((e) => e.code)).toEqual(['AA', 'BB', 'CC']);
    expect(counting.read()).toBeLessThan(bytes.length / 100);
  });
});

describe.skipIf(!hasGeoCorpora)('real files', () => {
  test('opening reads the headers through a few windows, not the file; dumping one list reads that entry', () => {
    const bytes = readFileSync(resolve(geoCorpora, 'upstream/dlc.dat'));
    const counting = countingSource(bytes);
    const dat = GeoDat.fromSource(counting.source, 'dlc.dat');
    const afterIndex = counting.read();
    // 1536 small entries: a window read ahead holds dozens of headers (a read each would be 3072).
    expect(dat.entries).toHaveLength(1536);
    expect(counting.reads()).toBeLessThan(150);
    expect(afterIndex).toBeLessThan(bytes.length / 2);
    const entry = dat.get('google');
    expect(dat.readSite(entry).rules.length).toBe(963);
    expect(counting.read() - afterIndex).toBe(entry.length);
  });

  test('reads one list of upstream dlc.dat the same as a full decode', () => {
    const path = resolve(geoCorpora, 'upstream/dlc.dat');
    const opened = GeoDat.open(path);
    const inMemory = GeoDat.fromBytes(readFileSync(path));
    try {
      expect(opened.entries).toHaveLength(1536);
      const info = datInfo(inMemory);
      expect(info.total).toBe(109236);
      expect(info.byType).toEqual({ domain: 102513, full: 6349, regexp: 374 });
      expect(info.entries.reduce((n, e) => n + (e.withAttributes ?? 0), 0)).toBe(9551);
      expect(opened.readSite(opened.get('google'))).toEqual(inMemory.readSite(inMemory.get('GOOGLE')));
    } finally {
      opened.close();
    }
  });
});
