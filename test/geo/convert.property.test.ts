// geo convert over random lists and damaged files: for every format, a random site or IP list is
// converted or refused with a GeoError, and when converted, the account's `written` is what reads
// back and its losses add up to what disappeared; damaged files of every format are read or refused
// with a GeoError naming the file, never another error.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type AnyList,
  type ConvertFormat,
  convertLists,
  DomainType,
  GeoError,
  type IpList,
  type LossCounts,
  readInput,
  type SiteList,
  type SiteRule,
} from '../../src/geo/index.js';

const READABLE = ['dat', 'srs', 'json', 'mrs', 'yaml', 'list', 'text'] as const;
const ALL: readonly ConvertFormat[] = [...READABLE, 'adguard', 'dnsmasq', 'nftables'];

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const name = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'cn', 'example'))
  .map(([labels, tld]) => [...labels, tld].join('.'));
const siteRule: fc.Arbitrary<SiteRule> = fc.oneof(
  fc.record({
    type: fc.constantFrom(DomainType.Full, DomainType.RootDomain),
    value: fc.oneof(
      { weight: 9, arbitrary: name },
      { weight: 1, arbitrary: name.map((n) => n.toUpperCase()) },
    ),
    attributes: fc.array(
      fc.record({
        key: fc.constantFrom('ads', 'cn', '!cn'),
        value: fc.oneof(fc.constant(true), fc.bigInt(-5n, 5n)),
      }),
      { maxLength: 2 },
    ),
  }),
  fc.record({ type: fc.constant(DomainType.Plain), value: label, attributes: fc.constant([]) }),
  fc.record({
    type: fc.constant(DomainType.Regex),
    value: fc.oneof(
      name.map((n) => `^.+\\.${n.replaceAll('.', '\\.')}$`),
      fc.constantFrom('^ad\\d+\\.example$', 'tracker', '(a|b)\\.cn$'),
    ),
    attributes: fc.constant([]),
  }),
);
/** Site lists with repeats: rules are drawn from a small pool so duplicates and folds happen. */
const siteList: fc.Arbitrary<SiteList> = fc
  .array(siteRule, { minLength: 1, maxLength: 6 })
  .chain((pool) => fc.array(fc.constantFrom(...pool), { maxLength: 12 }))
  .map((rules) => ({ code: 'RND', rules }));
const cidr = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
    .map(([start, prefix]) => {
      const masked = prefix === 0 ? 0 : (start >>> (32 - prefix)) << (32 - prefix);
      return {
        ip: Uint8Array.of(masked >>> 24, (masked >>> 16) & 255, (masked >>> 8) & 255, masked & 255),
        prefix,
      };
    }),
  fc
    .tuple(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.integer({ min: 0, max: 128 }))
    .map(([bytes, prefix]) => {
      const ip = bytes.slice();
      for (let bit = prefix; bit < 128; bit++) ip[bit >> 3] = (ip[bit >> 3] as number) & ~(0x80 >> (bit & 7));
      return { ip, prefix };
    }),
);
const ipList: fc.Arbitrary<IpList> = fc
  .record({ cidrs: fc.array(cidr, { maxLength: 8 }), inverseMatch: fc.boolean() })
  .map((l) => ({ code: 'RND', ...l }));
const anyList: fc.Arbitrary<AnyList> = fc.oneof(
  siteList.map((list) => ({ kind: 'site' as const, list })),
  ipList.map((list) => ({ kind: 'ip' as const, list })),
);

const lostRules = (lost: LossCounts) =>
  (lost.keyword ?? 0) + (lost.regexp ?? 0) + (lost.duplicate ?? 0) + (lost.merged ?? 0);

describe('random lists through every format', () => {
  test('converted or refused with a GeoError; what reads back is what the account says', () => {
    fc.assert(
      fc.property(anyList, fc.constantFrom(...ALL), (item, to) => {
        let out: ReturnType<typeof convertLists>;
        try {
          out = convertLists([{ source: 'rnd.dat', stem: 'rnd', item }], { to });
        } catch (err) {
          if (!(err instanceof GeoError)) throw err;
          expect(err.message.startsWith('rnd.dat: ')).toBe(true);
          return;
        }
        const account = out.accounts[0];
        if (!account) throw new Error('no account');
        const count = item.kind === 'site' ? item.list.rules.length : item.list.cidrs.length;
        expect(account.rules).toBe(count);
        expect(lostRules(account.lost)).toBe(count - account.written);
        const file = out.files[0];
        if (!(READABLE as readonly string[]).includes(to)) return;
        if (!file) {
          expect([to, account.written, account.file]).toEqual(['mrs', 0, false]);
          return;
        }
        const input = readInput(file.bytes, to === 'dat' ? 'rnd.dat' : file.fileName);
        const back = input.read('rnd');
        expect(back.kind === 'site' ? back.list.rules.length : back.list.cidrs.length).toBe(account.written);
        // Everything comes back from dat and text (an empty list as an empty site list: nothing in
        // a file of no rules tells its kind).
        if ((to === 'dat' || to === 'text') && count > 0) expect(back).toEqual(item);
      }),
      { numRuns: 1500, seed: 20261125 },
    );
  });
});

describe('damaged files of every format', () => {
  test('read or refused with a GeoError naming the file', () => {
    fc.assert(
      fc.property(
        anyList,
        fc.constantFrom(...READABLE),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(), { nil: undefined }),
        (item, to, flips, cut) => {
          let bytes: Uint8Array;
          try {
            const file = convertLists([{ source: 'rnd', stem: 'rnd', item }], { to }).files[0];
            if (!file) return;
            bytes = file.bytes.slice();
          } catch (err) {
            if (err instanceof GeoError) return;
            throw err;
          }
          if (bytes.length === 0) return;
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          if (cut !== undefined) bytes = bytes.subarray(0, cut % bytes.length);
          const fileName = `damaged-${to}`;
          try {
            const input = readInput(bytes, fileName);
            for (const code of input.codes) input.read(code);
          } catch (err) {
            if (!(err instanceof GeoError)) throw new Error(`${to}: ${String(err)} is not a GeoError`);
            expect(err.message).toContain(fileName);
          }
        },
      ),
      { numRuns: 1500, seed: 20261126 },
    );
  });
});
