// The hand-written encoders and decoders against the generated @bufbuild/protobuf code: same
// bytes for the same message (random messages via fast-check), and clear errors on corrupt input.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Domain_Type, GeoIPListSchema, GeoSiteListSchema } from '../../src/geo/gen/geo_pb.js';
import {
  DomainType,
  decodeGeoIp,
  decodeGeoSite,
  encodeGeoIpList,
  encodeGeoSiteList,
  GeoDat,
  GeoError,
  type IpList,
  type SiteList,
} from '../../src/geo/index.js';

const attribute = fc.record({
  key: fc.string({ maxLength: 8 }),
  value: fc.oneof(fc.boolean(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
});
const rule = fc.record({
  type: fc.constantFrom(0, 1, 2, 3),
  value: fc.string({ maxLength: 200, unit: 'binary' }),
  attributes: fc.array(attribute, { maxLength: 3 }),
});
const siteList = fc.record({ code: fc.string({ maxLength: 20 }), rules: fc.array(rule, { maxLength: 20 }) });
const cidr = fc.oneof(
  fc.record({ ip: fc.uint8Array({ minLength: 4, maxLength: 4 }), prefix: fc.integer({ min: 0, max: 32 }) }),
  fc.record({
    ip: fc.uint8Array({ minLength: 16, maxLength: 16 }),
    prefix: fc.integer({ min: 0, max: 128 }),
  }),
);
const ipList = fc.record({
  code: fc.string({ maxLength: 20 }),
  cidrs: fc.array(cidr, { maxLength: 20 }),
  inverseMatch: fc.boolean(),
});

function toGeneratedSites(lists: SiteList[]) {
  return create(GeoSiteListSchema, {
    entry: lists.map((l) => ({
      countryCode: l.code,
      domain: l.rules.map((r) => ({
        type: r.type,
        value: r.value,
        attribute: r.attributes.map((a) => ({
          key: a.key,
          typedValue:
            typeof a.value === 'boolean'
              ? { case: 'boolValue' as const, value: a.value }
              : { case: 'intValue' as const, value: a.value },
        })),
      })),
    })),
  });
}

test('DomainType, written out in model.ts, has the values of the generated Domain.Type', () => {
  expect(DomainType).toEqual({
    Plain: Domain_Type.Plain,
    Regex: Domain_Type.Regex,
    RootDomain: Domain_Type.RootDomain,
    Full: Domain_Type.Full,
  });
  const generated = Object.entries(Domain_Type).filter(([, v]) => typeof v === 'number');
  expect(Object.fromEntries(generated)).toEqual(DomainType);
});

describe('hand-written codec versus generated code', () => {
  test('encodeGeoSiteList writes the bytes toBinary writes', () => {
    fc.assert(
      fc.property(fc.array(siteList, { maxLength: 4 }), (lists) => {
        const ours = encodeGeoSiteList(lists);
        expect(Buffer.from(ours).equals(toBinary(GeoSiteListSchema, toGeneratedSites(lists)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('encodeGeoIpList writes the bytes toBinary writes', () => {
    fc.assert(
      fc.property(fc.array(ipList, { maxLength: 4 }), (lists: IpList[]) => {
        const generated = create(GeoIPListSchema, {
          entry: lists.map((l) => ({
            countryCode: l.code,
            cidr: l.cidrs.map((c) => ({ ...c })),
            inverseMatch: l.inverseMatch,
          })),
        });
        expect(Buffer.from(encodeGeoIpList(lists)).equals(toBinary(GeoIPListSchema, generated))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('decoders read back what the generated code writes', () => {
    fc.assert(
      fc.property(fc.array(siteList, { minLength: 1, maxLength: 3 }), (lists) => {
        const bytes = toBinary(GeoSiteListSchema, toGeneratedSites(lists));
        const dat = GeoDat.fromBytes(bytes);
        const back = dat.entries.map((e) => decodeGeoSite(dat.entryBytes(e), 0, e.length, e.offset));
        expect(back).toEqual(lists);
        const reparsed = fromBinary(GeoSiteListSchema, encodeGeoSiteList(back));
        expect(reparsed.entry.map((e) => e.countryCode)).toEqual(lists.map((l) => l.code));
      }),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(fc.array(ipList, { minLength: 1, maxLength: 3 }), (lists: IpList[]) => {
        const bytes = encodeGeoIpList(lists);
        const dat = GeoDat.fromBytes(bytes);
        expect(dat.entries.map((e) => decodeGeoIp(dat.entryBytes(e), 0, e.length, e.offset))).toEqual(
          lists.map((l) => ({
            ...l,
            cidrs: l.cidrs.map((c) => ({ ip: new Uint8Array(c.ip), prefix: c.prefix })),
          })),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('corrupt and truncated files', () => {
  const sample = encodeGeoSiteList([
    { code: 'A', rules: [{ type: 2, value: 'a.example', attributes: [] }] },
    { code: 'B', rules: [{ type: 3, value: 'b.example', attributes: [{ key: 'ads', value: true }] }] },
  ]);

  test('a truncated file names the entry and the byte offset', () => {
    const cut = sample.subarray(0, sample.length - 3);
    expect(() => GeoDat.fromBytes(cut)).toThrowError(GeoError);
    expect(() => GeoDat.fromBytes(cut)).toThrowError(
      /^<memory>: corrupt data at byte 20: entry 2 of \d+ bytes runs past the end of the file \(\d+ left; truncated\?\)$/,
    );
  });

  test('a bad length inside an entry names its byte offset when the entry is read', () => {
    const bad = Buffer.from(sample);
    // Entry A: 0a 12 | 0a 01 'A' | 12 0d [08 02 12 09 a.example]; make the value's length 0x7f.
    expect([...bad.subarray(0, 11)]).toEqual([
      0x0a, 0x12, 0x0a, 0x01, 0x41, 0x12, 0x0d, 0x08, 0x02, 0x12, 0x09,
    ]);
    bad[10] = 0x7f;
    const dat = GeoDat.fromBytes(bad);
    expect(() => dat.readSite(dat.get('A'))).toThrowError(
      'corrupt data at byte 10: field of 127 bytes runs past the end of its message (9 left)',
    );
  });

  test('a file that is not a .dat at all is refused at byte 0', () => {
    expect(() => GeoDat.fromBytes(Buffer.from('# README\n'))).toThrowError(
      'corrupt data at byte 0: invalid field tag 0x23: not a geosite.dat / geoip.dat file',
    );
  });

  test('a truncated varint is reported', () => {
    expect(() => GeoDat.fromBytes(Uint8Array.from([0x0a, 0x80]))).toThrowError(
      'corrupt data at byte 1: truncated varint',
    );
  });

  test('reading a site file as IP lists is refused', () => {
    const dat = GeoDat.fromBytes(sample, 'geosite.dat');
    expect(dat.kind).toBe('site');
    expect(() => dat.readIp(dat.get('A'))).toThrowError('geosite.dat holds site lists, not ip lists');
  });
});
