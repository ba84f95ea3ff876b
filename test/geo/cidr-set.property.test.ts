// Property tests: merging CIDRs keeps exactly the same address set, and the result is the
// smallest sorted set of aligned blocks (IPv4 and IPv6, random overlapping ranges).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CidrSet, compileIpLists, encodeGeoIpList } from '../../src/geo/index.js';
import { bytesToBigint } from '../../src/geo/ip/ip-address.js';
import { encodeCidrSets } from '../../src/geo/ip/ip-encoder.js';

type Range = [bigint, bigint];

/** Reference union of inclusive ranges, by plain sorting. */
function union(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Range[] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1n) {
      if (e > last[1]) last[1] = e;
    } else out.push([s, e]);
  }
  return out;
}

function check(bits: 32 | 128, inputs: { start: bigint; prefix: number }[]): void {
  const set = new CidrSet();
  const ranges: Range[] = [];
  for (const { start, prefix } of inputs) {
    const host = BigInt(bits - prefix);
    const base = (start >> host) << host;
    ranges.push([base, base + (1n << host) - 1n]);
    if (bits === 32) set.addV4(Number(base), prefix);
    else set.addV6(base, prefix);
  }
  const out = set.build();
  const outRanges: Range[] = out.map((c) => {
    expect(c.ip.length).toBe(bits / 8);
    const s = bytesToBigint(c.ip);
    const host = BigInt(bits - c.prefix);
    expect((s >> host) << host).toBe(s); // aligned: no host bits set
    return [s, s + (1n << host) - 1n];
  });
  // Sorted and disjoint.
  for (let i = 1; i < outRanges.length; i++) {
    expect((outRanges[i] as Range)[0] > (outRanges[i - 1] as Range)[1]).toBe(true);
  }
  // Same address set.
  expect(union(outRanges)).toEqual(union(ranges));
  // Minimal: no two neighbours are the two halves of one larger block.
  for (let i = 1; i < out.length; i++) {
    const a = out[i - 1] as { prefix: number };
    const b = out[i] as { prefix: number };
    const [as, ae] = outRanges[i - 1] as Range;
    if (a.prefix === b.prefix && a.prefix > 0 && ae + 1n === (outRanges[i] as Range)[0]) {
      const parentHost = BigInt(bits - a.prefix + 1);
      expect((as >> parentHost) << parentHost === as).toBe(false);
    }
  }
}

const v4 = fc.record({
  start: fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }),
  prefix: fc.integer({ min: 0, max: 32 }),
});
// Cluster addresses so ranges overlap and touch often.
const v4Near = fc.record({
  start: fc.bigInt({ min: 0x0a000000n, max: 0x0a0003ffn }),
  prefix: fc.integer({ min: 22, max: 32 }),
});
const v6 = fc.record({
  start: fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
  prefix: fc.integer({ min: 0, max: 128 }),
});
const v6Near = fc.record({
  start: fc.bigInt({ min: 0x20010db8n << 96n, max: (0x20010db8n << 96n) + 0xfffn }),
  prefix: fc.integer({ min: 116, max: 128 }),
});

describe('CIDR merge keeps exactly the same addresses, minimally', () => {
  test('IPv4', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(v4, v4Near, v4Near), { maxLength: 40 }), (xs) => check(32, xs)),
      {
        numRuns: 300,
      },
    );
  });

  test('IPv6', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(v6, v6Near, v6Near), { maxLength: 40 }), (xs) => check(128, xs)),
      {
        numRuns: 300,
      },
    );
  });

  test('the whole IPv4 space merges to 0.0.0.0/0', () => {
    const set = new CidrSet();
    set.addV4(0, 1);
    set.addV4(2 ** 31, 1);
    expect(set.build()).toEqual([{ ip: new Uint8Array([0, 0, 0, 0]), prefix: 0 }]);
  });
});

describe('the direct set encoder (build-ip fast path)', () => {
  test('writes the same bytes as building Cidr objects and encoding them', () => {
    const edges = fc.oneof(
      fc.record({ start: fc.constant(0n), prefix: fc.constantFrom(0, 1, 127, 128) }),
      fc.record({ start: fc.constant(2n ** 128n - 1n), prefix: fc.constantFrom(0, 64, 128) }),
    );
    const setOf = (xs4: { start: bigint; prefix: number }[], xs6: { start: bigint; prefix: number }[]) => {
      const set = new CidrSet();
      for (const x of xs4) set.addV4(Number(x.start), x.prefix);
      for (const x of xs6) set.addV6((x.start >> BigInt(128 - x.prefix)) << BigInt(128 - x.prefix), x.prefix);
      return set;
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(fc.oneof(v4, v4Near), { maxLength: 8 }),
            fc.array(fc.oneof(v6, v6Near, edges), { maxLength: 8 }),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (specs) => {
          const nonEmpty = specs.filter(([a, b]) => a.length + b.length > 0);
          const sets = new Map(nonEmpty.map(([a, b], i) => [`C${i}`, setOf(a, b)]));
          const { bytes: direct, cidrs } = encodeCidrSets([...sets].map(([code, set]) => ({ code, set })));
          const lists = compileIpLists(sets);
          const viaObjects = encodeGeoIpList(lists);
          expect(cidrs).toBe(lists.reduce((n, l) => n + l.cidrs.length, 0));
          expect(Buffer.from(direct).equals(Buffer.from(viaObjects))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
