import { describe, expect, test } from 'vitest';
import { cidrToText, compileIpLists, GeoError } from '../../src/geo/index.js';
import { readMmdbCountries } from '../../src/geo/ip/mmdb-source.js';
import { ipv4Bits, ipv6Bits, writeMmdb } from './support/mmdb-writer.js';

function listsOf(db: Buffer): Record<string, string[]> {
  const lists = compileIpLists(readMmdbCountries(db, 'test.mmdb'));
  return Object.fromEntries(lists.map((l) => [l.code, l.cidrs.map((c) => cidrToText(c.ip, c.prefix))]));
}

describe('mmdb country database input', () => {
  test('reads every network of an IPv4 database, merging neighbours per country, falling back to registered_country', () => {
    const db = writeMmdb({
      ipVersion: 4,
      networks: [
        { bits: ipv4Bits('1.0.0.0/25'), iso: 'AU' },
        { bits: ipv4Bits('1.0.0.128/25'), iso: 'AU' },
        { bits: ipv4Bits('5.1.0.0/16'), iso: 'DE' },
        { bits: ipv4Bits('8.8.8.0/24'), iso: 'us' },
        { bits: ipv4Bits('9.9.0.0/16'), iso: 'US', field: 'registered_country' },
      ],
    });
    expect(listsOf(db)).toEqual({ AU: ['1.0.0.0/24'], DE: ['5.1.0.0/16'], US: ['8.8.8.0/24', '9.9.0.0/16'] });
  });

  test('takes IPv4 from ::/96 of an IPv6 database and skips its ::ffff:0:0/96 alias', () => {
    const db = writeMmdb({
      ipVersion: 6,
      networks: [
        { bits: ipv4Bits('5.1.0.0/16', true), iso: 'DE' },
        { bits: ipv6Bits('2a00:0:0:0:0:0:0:0/12'), iso: 'DE' },
        { bits: ipv6Bits('2001:0db8:0:0:0:0:0:0/32'), iso: 'JP' },
      ],
      ipv4Aliases: ['0'.repeat(80) + '1'.repeat(16)],
    });
    expect(listsOf(db)).toEqual({ DE: ['5.1.0.0/16', '2a00::/12'], JP: ['2001:db8::/32'] });
  });

  test('rejects a file that is not an mmdb with a clear message', () => {
    expect(() => readMmdbCountries(Buffer.from('not a database'), 'x.mmdb')).toThrowError(GeoError);
    expect(() => readMmdbCountries(Buffer.from('not a database'), 'x.mmdb')).toThrowError(
      /^x\.mmdb: not a MaxMind DB file/,
    );
  });
});
