// Property tests of the mihomo provider readers and writers. Hostile input: random truncations and
// byte changes of .mrs files we write (of the file, and of the payload inside a valid frame), of
// length fields, and of text/YAML providers: the reader returns or throws a GeoError naming the
// file and a byte offset or line -- never another error, a hang (the timeout) or unbounded memory.
// Random valid lists: every form reads back what it holds, and mihomo's Has agrees on names.
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GeoDat } from '../../src/geo/dat/geo-dat.js';
import { GeoError } from '../../src/geo/errors.js';
import {
  mrsPayload,
  type ProviderList,
  readProvider,
  unzstd,
  writeMrs,
  writeProviderText,
  zstdFrame,
} from '../../src/geo/formats/mihomo/index.js';
import { CidrSet } from '../../src/geo/ip/cidr-set.js';
import { formatCidr } from '../../src/geo/ip/ip-address.js';
import { type Cidr, DomainType, type IpList, type SiteList, type SiteRule } from '../../src/geo/model.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';
import { MihomoDomainSet, PlainSiteEval } from './support/mihomo-reference.js';
import { ipFcsHex, siteFcsHex, siteStreamHex } from './support/mihomo-zstd-fixtures.js';

const enc = new TextEncoder();
const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A change to a file: cut it, overwrite bytes, or insert / delete one byte. */
type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'set'; readonly bytes: readonly (readonly [number, number])[] }
  | { readonly kind: 'insert' | 'delete'; readonly at: number; readonly value: number };

const byteValue = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(...Array.from('\n#-\'":*+./ \r[]', (c) => c.charCodeAt(0)), 0, 0x7f, 0x80, 0xff),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('set' as const),
    bytes: fc.array(fc.tuple(fc.nat(), byteValue), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), at: fc.nat(), value: byteValue }),
);

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = bytes.length;
  if (m.kind === 'truncate') return bytes.slice(0, m.at % n);
  if (m.kind === 'set') {
    const out = bytes.slice();
    for (const [at, value] of m.bytes) out[at % n] = value;
    return out;
  }
  const at = m.at % n;
  if (m.kind === 'delete') return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
  return Uint8Array.from([...bytes.subarray(0, at), m.value, ...bytes.subarray(at)]);
}

/** How many damaged inputs were read and how many refused, per test. */
const outcomes = { read: 0, refused: 0 };

/** Reads bytes; a failure must be a GeoError whose message starts with `name` and matches `where`. */
function readsOrRefuses(name: string, bytes: Uint8Array, where: RegExp): ProviderList | undefined {
  try {
    const out = readProvider(bytes, name);
    outcomes.read++;
    return out;
  } catch (err) {
    if (!(err instanceof GeoError)) throw new Error(`${name}: ${String(err)} is not a GeoError`);
    expect(err.message.startsWith(name), err.message).toBe(true);
    expect(err.message).toMatch(where);
    outcomes.refused++;
    return undefined;
  }
}

const atByte = (name: string) => new RegExp(`^${reEscape(name)}(: decompressed)? byte \\d+: `);
const atLine = (name: string) => new RegExp(`^${reEscape(name)}:\\d+: `);

/**
 * Runs a property, checks the heap did not keep growing by anything like a file per run, and
 * returns how many inputs were read and refused (a property that refuses nothing tests nothing).
 */
function bounded(run: () => void): { read: number; refused: number } {
  outcomes.read = 0;
  outcomes.refused = 0;
  const before = process.memoryUsage().heapUsed;
  run();
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * 1024 * 1024);
  expect(outcomes.refused).toBeGreaterThan(0);
  return { ...outcomes };
}

/** Lists to damage: real ones when the corpora are there, the CLI-made fixtures always. */
function targets(): { site: SiteList; ip: IpList } {
  if (hasGeoCorpora) {
    const sites = GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat'));
    const ips = GeoDat.open(resolve(geoCorpora, 'upstream/geoip-jp.dat'));
    const jp = ips.readIp(ips.get('JP'));
    // IPv4 and IPv6 networks of the real JP list, a few hundred of each.
    const cidrs = [
      ...jp.cidrs.filter((c) => c.ip.length === 4).slice(0, 300),
      ...jp.cidrs.filter((c) => c.ip.length === 16).slice(0, 300),
    ];
    return { site: sites.readSite(sites.get('google')), ip: { ...jp, cidrs } };
  }
  const site = readProvider(hex(siteFcsHex), 's.mrs');
  const ip = readProvider(hex(ipFcsHex), 'i.mrs');
  if (site.kind !== 'site' || ip.kind !== 'ip') throw new Error('fixtures');
  return { site: site.list, ip: ip.list };
}

describe('hostile providers: read or refused with a GeoError naming file and offset or line', () => {
  const { site, ip } = targets();
  const files: [string, Uint8Array][] = [
    ['site.mrs', writeMrs(site)],
    ['ip.mrs', writeMrs(ip)],
    ['cli-site.mrs', hex(siteFcsHex)],
    ['cli-stream.mrs', hex(siteStreamHex)],
    ['cli-ip.mrs', hex(ipFcsHex)],
  ];

  test('.mrs files: truncated, bytes changed, inserted or deleted', () => {
    bounded(() =>
      fc.assert(
        fc.property(fc.constantFrom(...files), mutation, ([name, bytes], m) => {
          readsOrRefuses(name, mutate(bytes, m), atByte(name));
        }),
        { numRuns: 600 },
      ),
    );
  }, 120_000);

  test('.mrs payloads damaged inside a valid zstd frame (the checksum cannot catch it)', () => {
    const payloads = files.map(([name, bytes]) => [name, unzstd(bytes, name)] as const);
    bounded(() =>
      fc.assert(
        fc.property(fc.constantFrom(...payloads), mutation, ([name, payload], m) => {
          const out = readsOrRefuses(name, zstdFrame(mutate(payload, m)), atByte(name));
          // Whatever still reads is a list the writer takes back (or refuses as unwritable).
          if (out) {
            try {
              writeMrs(out.list);
            } catch (err) {
              expect(err).toBeInstanceOf(GeoError);
            }
          }
        }),
        { numRuns: 1500 },
      ),
    );
  }, 120_000);

  test('length and count fields set to anything, 2^40 and 2^63-1 included, are refused before allocating', () => {
    const sitePayload = mrsPayload(site);
    const ipPayload = mrsPayload(ip);
    const view = new DataView(sitePayload.buffer, sitePayload.byteOffset);
    const leaves = Number(view.getBigInt64(22, false));
    const bitmapAt = 30 + leaves * 8;
    const bitmap = Number(view.getBigInt64(bitmapAt, false));
    const labelsAt = bitmapAt + 8 + bitmap * 8;
    const fields: [Uint8Array, number][] = [
      [sitePayload, 5],
      [sitePayload, 13],
      [sitePayload, 22],
      [sitePayload, bitmapAt],
      [sitePayload, labelsAt],
      [ipPayload, 5],
      [ipPayload, 13],
      [ipPayload, 22],
    ];
    const value = fc.oneof(
      fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
      fc.constantFrom(1n << 40n, (1n << 63n) - 1n, -1n, 0n, 1n, 1n << 31n, 1n << 53n),
    );
    bounded(() =>
      fc.assert(
        fc.property(fc.constantFrom(...fields), value, ([payload, at], v) => {
          const changed = payload.slice();
          new DataView(changed.buffer).setBigInt64(at, v, false);
          const started = performance.now();
          readsOrRefuses('len.mrs', zstdFrame(changed), atByte('len.mrs'));
          expect(performance.now() - started).toBeLessThan(2000);
        }),
        { numRuns: 400 },
      ),
    );
  }, 120_000);

  test('text and YAML providers: truncated, bytes changed, inserted or deleted', () => {
    const texts: [string, Uint8Array][] = [
      ['site.txt', enc.encode(writeProviderText(site, 'text'))],
      ['site.yaml', enc.encode(writeProviderText(site, 'yaml'))],
      ['ip.txt', enc.encode(writeProviderText(ip, 'text'))],
      ['ip.yaml', enc.encode(writeProviderText(ip, 'yaml'))],
    ];
    bounded(() =>
      fc.assert(
        fc.property(fc.constantFrom(...texts), mutation, ([name, bytes], m) => {
          readsOrRefuses(name, mutate(bytes, m), atLine(name));
        }),
        { numRuns: 1000 },
      ),
    );
  }, 120_000);
});

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,6}[a-z0-9])?$/);
const domainName = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.'));
const siteRule: fc.Arbitrary<SiteRule> = fc
  .tuple(
    fc.constantFrom(DomainType.Full, DomainType.RootDomain, DomainType.Regex, DomainType.Plain),
    domainName,
  )
  .map(([type, value]) => ({
    type,
    value: type === DomainType.Regex ? `^.+\\.${value.replaceAll('.', '\\.')}$` : value,
    attributes: [],
  }));

describe('random valid lists', () => {
  test("site lists: text/YAML read back every held rule; .mrs one rule per domain; mihomo's Has agrees", () => {
    fc.assert(
      fc.property(
        fc.array(siteRule, { minLength: 1, maxLength: 60 }),
        fc.array(domainName, { maxLength: 20 }),
        (rules, extra) => {
          const list: SiteList = { code: 'R', rules };
          const held = rules.filter((r) => r.type !== DomainType.Plain);
          for (const form of ['text', 'yaml'] as const) {
            const back = readProvider(enc.encode(writeProviderText(list, form)), `r.${form}`, 'domain', 'R');
            expect(back.list).toEqual({ code: 'R', rules: held });
          }
          if (held.length === 0) return;
          const mrs = writeMrs(list);
          const back = readProvider(mrs, 'r.mrs');
          if (back.kind !== 'site') throw new Error('kind');
          expect(Buffer.compare(writeMrs(back.list), mrs)).toBe(0);
          const plain = new PlainSiteEval(back.list);
          const heldEval = new PlainSiteEval({ code: 'R', rules: held });
          const mihomo = new MihomoDomainSet(unzstd(mrs, 'r.mrs'));
          // The read-back rules (`.x` as a regexp) mean the same to branchgate's own matcher.
          const matcher = SiteMatcher.compile([back.list]);
          const names = new Set(extra);
          for (const r of held) {
            const v = r.type === DomainType.Regex ? r.value.slice(5, -1).replaceAll('\\.', '.') : r.value;
            names
              .add(v)
              .add(`a.${v}`)
              .add(`a${v}`)
              .add(v.slice(v.indexOf('.') + 1));
          }
          for (const name of names) {
            const want = heldEval.has(name);
            expect(plain.has(name), name).toBe(want);
            expect(mihomo.has(name), name).toBe(want);
            expect(matcher.matchCodes(name).length > 0, name).toBe(want);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('IP lists: text/YAML keep every network; .mrs keeps the merged set', () => {
    const cidr: fc.Arbitrary<Cidr> = fc
      .oneof(
        fc.tuple(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 32 })),
        fc.tuple(
          // Not in ::ffff:0:0/96, which .mrs keeps for IPv4.
          fc
            .uint8Array({ minLength: 16, maxLength: 16 })
            .filter((b) => !(b.subarray(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255)),
          fc.integer({ min: 1, max: 128 }),
        ),
      )
      .map(([bytes, prefix]) => {
        const set = new CidrSet();
        set.addCidr({ ip: bytes, prefix });
        return set.build()[0] as Cidr;
      });
    fc.assert(
      fc.property(fc.array(cidr, { minLength: 1, maxLength: 40 }), (cidrs) => {
        const list: IpList = { code: 'R', cidrs, inverseMatch: false };
        const text = (cs: readonly Cidr[]) => cs.map((c) => formatCidr(c.ip, c.prefix));
        for (const form of ['text', 'yaml'] as const) {
          const back = readProvider(enc.encode(writeProviderText(list, form)), `r.${form}`, 'ipcidr');
          if (back.kind !== 'ip') throw new Error('kind');
          expect(text(back.list.cidrs)).toEqual(text(cidrs));
        }
        const back = readProvider(writeMrs(list), 'r.mrs');
        if (back.kind !== 'ip') throw new Error('kind');
        const merged = new CidrSet();
        for (const c of cidrs) merged.addCidr(c);
        expect(text(back.list.cidrs)).toEqual(text(merged.build()));
      }),
      { numRuns: 300 },
    );
  });
});
