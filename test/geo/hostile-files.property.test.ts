// Hostile files: every geo reader meets random truncations and byte flips of real files (the
// upstream geoip .dat files, a site .dat built from the real domain-list-community tree, an mmdb,
// the real text lists) and must either read them or refuse them with a GeoError that names the
// file and the byte offset (or line) -- never another error, a hang (the test's timeout) or
// unbounded memory (heap growth is checked).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildSiteDat, GeoDat, GeoError, loadMatcher } from '../../src/geo/index.js';
import { CidrSet } from '../../src/geo/ip/cidr-set.js';
import { parseIpText } from '../../src/geo/ip/ip-source.js';
import { readMmdbCountries } from '../../src/geo/ip/mmdb-source.js';
import { parseSiteSource } from '../../src/geo/site/site-source.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { ipv6Bits, writeMmdb } from './support/mmdb-writer.js';

const corpora = resolve(import.meta.dirname, '../../../shared/corpora/geo');
const random = seededRandom(20261125);
const int = (n: number) => Math.floor(random() * n);

/** A truncation, or one to four random byte flips, of bytes (a copy). */
function mutate(bytes: Uint8Array): { bytes: Uint8Array; what: string } {
  if (random() < 0.35) {
    const at = int(bytes.length);
    return { bytes: bytes.slice(0, at), what: `truncated at ${at}` };
  }
  const out = bytes.slice();
  const flips: string[] = [];
  for (let k = 0, n = 1 + int(4); k < n; k++) {
    const at = int(out.length);
    const value = int(256);
    out[at] = value;
    flips.push(`${at}=${value}`);
  }
  return { bytes: out, what: `bytes ${flips.join(',')}` };
}

/**
 * Runs read on `runs` mutations of bytes: each either succeeds or throws a GeoError naming the
 * file and where; returns how many were refused.
 */
function hostile(
  name: string,
  bytes: Uint8Array,
  runs: number,
  read: (b: Uint8Array) => unknown,
  where: RegExp,
) {
  let refused = 0;
  const heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) {
    const { bytes: mutated, what } = mutate(bytes);
    try {
      read(mutated);
    } catch (err) {
      if (!(err instanceof GeoError)) throw new Error(`${name}, ${what}: ${String(err)} is not a GeoError`);
      expect(err.message, `${name}, ${what}`).toContain(name);
      expect(err.message, `${name}, ${what}`).toMatch(where);
      refused++;
    }
  }
  // Garbage aside, nothing the size of a file per run may stay behind.
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(512 * 1024 * 1024);
  return refused;
}

const atByte = /byte \d+/;

describe('hostile files: every reader refuses damage clearly', () => {
  test('IP .dat files (upstream geoip-cn, -jp, -private): index, decode every list, build the matcher', () => {
    for (const file of ['geoip-private.dat', 'geoip-cn.dat', 'geoip-jp.dat']) {
      const bytes = readFileSync(resolve(corpora, 'upstream', file));
      const refused = hostile(
        file,
        bytes,
        120,
        (b) => {
          const dat = GeoDat.fromBytes(b, file);
          if (dat.kind === 'ip') for (const e of dat.entries) dat.readIp(e);
          if (dat.kind !== 'empty') loadMatcher(dat);
        },
        atByte,
      );
      expect(refused).toBeGreaterThan(0);
    }
  }, 60_000);

  test('a site .dat built from the real tree: index, decode, and build the matcher (also with code@attr)', () => {
    const data = resolve(corpora, 'domain-list-community/data');
    const { bytes } = buildSiteDat(data, { codes: ['google', 'cn', 'category-ads-all', 'apple'] });
    const refused = hostile(
      'site.dat',
      bytes,
      250,
      (b) => {
        const dat = GeoDat.fromBytes(b, 'site.dat');
        if (dat.kind === 'site') for (const e of dat.entries) dat.readSite(e);
        if (dat.kind !== 'empty') loadMatcher(dat);
        if (dat.kind === 'site' && dat.find('GOOGLE')) loadMatcher(dat, ['google@ads', 'google']);
      },
      atByte,
    );
    expect(refused).toBeGreaterThan(0);
  }, 60_000);

  test('a country mmdb', () => {
    const db = writeMmdb({
      ipVersion: 6,
      networks: [
        { bits: ipv6Bits('::1.0.0.0/104'), iso: 'AU' },
        { bits: ipv6Bits('::8.8.0.0/112'), iso: 'US' },
        { bits: ipv6Bits('2001:db8::/32'), iso: 'DE', field: 'registered_country' },
      ],
    });
    const refused = hostile(
      'test.mmdb',
      db,
      300,
      (b) => readMmdbCountries(Buffer.from(b), 'test.mmdb'),
      /byte \d+|not a MaxMind DB|unsupported record size|search tree/,
    );
    expect(refused).toBeGreaterThan(0);
  }, 60_000);

  test('text lists: CIDR lists and domain-list-community sources, decoded as UTF-8 after damage', () => {
    const cidrFile = resolve(corpora, 'cidr/v2fly-geoip/text/jp.txt');
    const cidrs = readFileSync(cidrFile);
    hostile(
      'jp.txt',
      cidrs,
      150,
      (b) => parseIpText(Buffer.from(b).toString('utf8'), 'jp.txt', new CidrSet()),
      /jp\.txt:\d+/,
    );
    const siteFile = resolve(corpora, 'domain-list-community/data/google');
    const site = readFileSync(siteFile);
    hostile(
      'google',
      site,
      150,
      (b) => parseSiteSource('google', Buffer.from(b).toString('utf8'), 'google'),
      /:\d+/,
    );
  }, 60_000);
});
