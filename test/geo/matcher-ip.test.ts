// The IP matcher: edges of both families (whole space, single hosts, the last address, adjacent
// and overlapping ranges), inverse_match, IPv4-mapped IPv6, bad input, and a differential
// property test against a linear scan over every CIDR.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GeoError, type IpList } from '../../src/geo/index.js';
import { bigintToBytes, parseCidr } from '../../src/geo/ip/ip-address.js';
import { IpMatcher } from '../../src/geo/ip/ip-matcher.js';
import { referenceIpMatch } from './support/matcher-reference.js';

function list(code: string, cidrs: string[], inverseMatch = false): IpList {
  return {
    code,
    inverseMatch,
    cidrs: cidrs.map((text) => {
      const c = parseCidr(text);
      if (!c) throw new Error(text);
      return { ip: c.v6 ? bigintToBytes(c.start, 16) : bigintToBytes(BigInt(c.start), 4), prefix: c.prefix };
    }),
  };
}

describe('IPv4 and IPv6 edges', () => {
  test('0.0.0.0/0 and ::/0 match their whole family and nothing of the other', () => {
    const m = IpMatcher.compile([list('ALL4', ['0.0.0.0/0']), list('ALL6', ['::/0'])]);
    for (const a of ['0.0.0.0', '1.2.3.4', '255.255.255.255']) expect(m.matchCodes(a), a).toEqual(['ALL4']);
    for (const a of ['::', '::1', '2001:db8::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']) {
      expect(m.matchCodes(a), a).toEqual(['ALL6']);
    }
  });

  test('/32 and /128 hold one address; the neighbours are outside', () => {
    const m = IpMatcher.compile([list('H', ['10.0.0.5/32', '2001:db8::5/128'])]);
    expect(m.matchCodes('10.0.0.5')).toEqual(['H']);
    expect(m.matchCodes('10.0.0.4')).toEqual([]);
    expect(m.matchCodes('10.0.0.6')).toEqual([]);
    expect(m.matchCodes('2001:db8::5')).toEqual(['H']);
    expect(m.matchCodes('2001:db8::4')).toEqual([]);
    expect(m.matchCodes('2001:db8::6')).toEqual([]);
  });

  test('the first and last address of each family', () => {
    const m = IpMatcher.compile([
      list('LO', ['0.0.0.0/32', '::/128']),
      list('HI', ['255.255.255.255/32', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128']),
    ]);
    expect(m.matchCodes('0.0.0.0')).toEqual(['LO']);
    expect(m.matchCodes('0.0.0.1')).toEqual([]);
    expect(m.matchCodes('255.255.255.255')).toEqual(['HI']);
    expect(m.matchCodes('255.255.255.254')).toEqual([]);
    expect(m.matchCodes('::')).toEqual(['LO']);
    expect(m.matchCodes('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toEqual(['HI']);
    expect(m.matchCodes('ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe')).toEqual([]);
  });

  test('adjacent and overlapping ranges of different lists split the space correctly', () => {
    const m = IpMatcher.compile([
      list('A', ['10.0.0.0/25', '10.0.0.128/25']), // adjacent halves: one range
      list('B', ['10.0.0.64/26', '10.0.0.96/27']), // inside A, nested
      list('C', ['10.0.1.0/24']), // right after A
    ]);
    expect(m.matchCodes('10.0.0.0')).toEqual(['A']);
    expect(m.matchCodes('10.0.0.63')).toEqual(['A']);
    expect(m.matchCodes('10.0.0.64')).toEqual(['A', 'B']);
    expect(m.matchCodes('10.0.0.127')).toEqual(['A', 'B']);
    expect(m.matchCodes('10.0.0.128')).toEqual(['A']);
    expect(m.matchCodes('10.0.0.255')).toEqual(['A']);
    expect(m.matchCodes('10.0.1.0')).toEqual(['C']);
    expect(m.matchCodes('10.0.2.0')).toEqual([]);
    expect(m.matchCodes('9.255.255.255')).toEqual([]);
  });

  test('inverse_match matches every address outside the list, in both families', () => {
    const m = IpMatcher.compile([
      list('NOTPRIV', ['10.0.0.0/8', 'fc00::/7'], true),
      list('PRIV', ['10.0.0.0/8']),
    ]);
    expect(m.matchCodes('10.1.2.3')).toEqual(['PRIV']);
    expect(m.matchCodes('11.0.0.0')).toEqual(['NOTPRIV']);
    expect(m.matchCodes('9.255.255.255')).toEqual(['NOTPRIV']);
    expect(m.matchCodes('fd00::1')).toEqual([]);
    expect(m.matchCodes('2001:db8::1')).toEqual(['NOTPRIV']);
  });

  test('an inverse list with no CIDRs matches everything; one holding 0.0.0.0/0 no IPv4', () => {
    const m = IpMatcher.compile([list('EVERY', [], true), list('NO4', ['0.0.0.0/0'], true)]);
    expect(m.matchCodes('1.1.1.1')).toEqual(['EVERY']);
    expect(m.matchCodes('::1')).toEqual(['EVERY', 'NO4']);
  });

  test('IPv4-mapped IPv6 is looked up as IPv4', () => {
    const m = IpMatcher.compile([list('V4', ['192.0.2.0/24']), list('MAPPED6', ['::ffff:0:0/96'])]);
    expect(m.matchCodes('::ffff:192.0.2.7')).toEqual(['V4']);
    expect(m.matchCodes('::ffff:c000:207')).toEqual(['V4']);
    expect(m.matchCodes('::ffff:198.51.100.1')).toEqual([]);
    // Not mapped (::a.b.c.d, the deprecated compatible form): stays IPv6.
    expect(m.matchCodes('::192.0.2.7')).toEqual([]);
  });

  test('numeric forms give the same answer as text', () => {
    const m = IpMatcher.compile([list('A', ['1.2.3.0/24', '2001:db8::/32'])]);
    const out = new Uint32Array(m.size);
    expect(m.matchV4(0x01020304, out)).toBe(1);
    expect(out[0]).toBe(0);
    expect(m.matchV4(0x01020404, out)).toBe(0);
    expect(m.matchV6(Uint32Array.of(0, 0x20010db8, 0, 0, 1), 1, out)).toBe(1);
    expect(m.matchV6(Uint32Array.of(0, 0, 0xffff, 0x01020305), 0, out)).toBe(1);
  });

  test('matchV4 takes an address from 128.0.0.0 up as a uint32 or as its int32 bit pattern', () => {
    const m = IpMatcher.compile([list('HIGH', ['203.0.113.0/24']), list('TOP', ['255.255.255.255/32'])]);
    const out = new Uint32Array(m.size);
    for (const [v, want] of [
      [0xcb007101, [0]],
      [0xcb007201, []],
      [0xffffffff, [1]],
    ] as const) {
      expect(m.matchV4(v, out), v.toString(16)).toBe(want.length);
      expect([...out.subarray(0, want.length)]).toEqual(want);
      expect(m.matchV4(v | 0, out), `${v | 0}`).toBe(want.length);
      expect([...out.subarray(0, want.length)]).toEqual(want);
    }
  });

  test('a bad address: -1 from match, a GeoError from matchCodes', () => {
    const m = IpMatcher.compile([list('A', ['0.0.0.0/0'])]);
    const out = new Uint32Array(1);
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '256.1.1.1',
      '1.2.3.4/8',
      ':::',
      'fe80::1%eth0',
      'x',
    ]) {
      expect(m.match(bad, out), bad).toBe(-1);
    }
    expect(() => m.matchCodes('1.2.3.256')).toThrow(GeoError);
    expect(() => m.matchCodes('1.2.3.256')).toThrow('invalid IP address "1.2.3.256"');
  });

  test('two entries with the same code count as one list', () => {
    const m = IpMatcher.compile([list('A', ['1.0.0.0/8']), list('a', ['2.0.0.0/8'])]);
    expect(m.codes).toEqual(['A']);
    expect(m.matchCodes('1.1.1.1')).toEqual(['A']);
    expect(m.matchCodes('2.2.2.2')).toEqual(['A']);
    expect(() => IpMatcher.compile([list('A', []), list('A', [], true)])).toThrow(/inverse_match/);
  });

  test('codes choose and order the lists; unknown codes and attributes are errors', () => {
    const lists = [list('A', ['1.0.0.0/8']), list('B', ['1.2.0.0/16'])];
    const m = IpMatcher.compile(lists, ['b', 'A']);
    expect(m.codes).toEqual(['B', 'A']);
    expect(m.matchCodes('1.2.3.4')).toEqual(['B', 'A']);
    expect(() => IpMatcher.compile(lists, ['c'])).toThrow(/no IP list "c"/);
    expect(() => IpMatcher.compile(lists, ['a@x'])).toThrow(/no attributes/);
  });
});

describe('differential: matcher vs a linear scan of every CIDR', () => {
  // Addresses concentrated near a few bases so that random CIDRs overlap and touch.
  const v4Base = fc.constantFrom(0, 0x0a000000, 0x0a0000f0, 0x7fffffff, 0xfffffff0);
  const v4 = fc.tuple(v4Base, fc.nat(0x1ff)).map(([b, d]) => Math.min(0xffffffff, b + d));
  const v6Base = fc.constantFrom(0n, 0x20010db8n << 96n, 0xffffn << 32n, (1n << 128n) - 0x100n, 1n << 127n);
  const v6 = fc.tuple(v6Base, fc.bigInt(0n, 0x1ffn)).map(([b, d]) => {
    const v = b + d;
    return v >= 1n << 128n ? (1n << 128n) - 1n : v;
  });
  const cidr = fc.oneof(
    fc.tuple(v4, fc.oneof(fc.integer({ min: 22, max: 32 }), fc.constantFrom(0, 1, 8))).map(([a, p]) => ({
      ip: bigintToBytes((BigInt(a) >> BigInt(32 - p)) << BigInt(32 - p), 4),
      prefix: p,
    })),
    fc
      .tuple(v6, fc.oneof(fc.integer({ min: 118, max: 128 }), fc.constantFrom(0, 1, 32, 96)))
      .map(([a, p]) => ({
        ip: bigintToBytes((a >> BigInt(128 - p)) << BigInt(128 - p), 16),
        prefix: p,
      })),
  );
  const lists = fc
    .array(fc.tuple(fc.array(cidr, { maxLength: 8 }), fc.boolean()), { minLength: 1, maxLength: 6 })
    .map((ls): IpList[] => ls.map(([cidrs, inv], k) => ({ code: `L${k}`, cidrs, inverseMatch: inv })));
  const address = fc.oneof(
    v4.map((a) => ({ bytes: bigintToBytes(BigInt(a), 4) })),
    v6.map((a) => ({ bytes: bigintToBytes(a, 16) })),
    v4.map((a) => ({ bytes: bigintToBytes((0xffffn << 32n) | BigInt(a), 16) })),
  );

  test('random lists and addresses: the same codes, by text and by number', () => {
    fc.assert(
      fc.property(lists, fc.array(address, { minLength: 1, maxLength: 20 }), (ls, addrs) => {
        const m = IpMatcher.compile(ls);
        const out = new Uint32Array(m.size);
        for (const { bytes } of addrs) {
          const expected = referenceIpMatch(ls, bytes);
          const text = bytes.length === 4 ? bytes.join('.') : ipv6Text(bytes);
          expect(m.matchCodes(text), text).toEqual(expected);
          const n =
            bytes.length === 4
              ? m.matchV4(new DataView(bytes.buffer).getUint32(0), out)
              : m.matchV6(Uint32Array.from(words(bytes)), 0, out);
          expect(
            [...out.subarray(0, n)].map((i) => m.codes[i]),
            text,
          ).toEqual(expected);
        }
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  // More than 16 lists take the radix sort (fewer are merged run by run); networks near the same
  // bases tie on their top 64 bits, which the IPv6 sort settles afterwards.
  const manyLists = fc
    .array(fc.tuple(fc.array(cidr, { maxLength: 8 }), fc.boolean()), { minLength: 17, maxLength: 30 })
    .map((ls): IpList[] => ls.map(([cidrs, inv], k) => ({ code: `L${k}`, cidrs, inverseMatch: inv })));
  test('many random lists (the radix sort): the same codes', () => {
    fc.assert(
      fc.property(manyLists, fc.array(address, { minLength: 1, maxLength: 20 }), (ls, addrs) => {
        const m = IpMatcher.compile(ls);
        for (const { bytes } of addrs) {
          const text = bytes.length === 4 ? bytes.join('.') : ipv6Text(bytes);
          expect(m.matchCodes(text), text).toEqual(referenceIpMatch(ls, bytes));
        }
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});

function words(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [0, 4, 8, 12].map((o) => view.getUint32(o));
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let k = 0; k < 16; k += 2)
    groups.push((((bytes[k] as number) << 8) | (bytes[k + 1] as number)).toString(16));
  return groups.join(':');
}
