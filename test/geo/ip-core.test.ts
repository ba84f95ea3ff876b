// The IP matcher's WebAssembly build core (assembly/ip-core.ts via src/geo/ip/ip-core.ts) against
// the JavaScript builder: the same tables, to the last word, on every real geoip file and on
// random files (sorted and merged as builders write them, or in any order, over and under the 64
// lists where set keys stop being exact); what the core does not take (another encoding, a list
// out of order, a field longer than a piece, corrupt data) goes to the JavaScript builder, whose
// answers and errors a build then gets.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { buildIpDat } from '../../src/geo/dat/geo-build.js';
import { type IpBuildEngine, loadIpMatcher } from '../../src/geo/dat/matcher-loader.js';
import { GeoDat, type IpList } from '../../src/geo/index.js';
import { CidrSet } from '../../src/geo/ip/cidr-set.js';
import { encodeGeoIpList } from '../../src/geo/ip/ip-encoder.js';
import type { IpMatcher } from '../../src/geo/ip/ip-matcher.js';
import { WireWriter } from '../../src/geo/wire/wire-writer.js';
import { geoCorpora, hasGeoCorpora, repoRoot, UPSTREAM_GEOIP_FILES } from './support/corpora.js';
import { geoError } from './support/geo-error.js';
import { referenceIpMatch } from './support/matcher-reference.js';

const tmp = mkdtempSync(join(tmpdir(), 'bg-ip-core-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function build(dat: GeoDat, engine: IpBuildEngine, codes?: readonly string[]): IpMatcher {
  return loadIpMatcher(dat, codes, { engine });
}

/** The two builds of the same lists agree on every table. */
function expectSameTables(a: IpMatcher, b: IpMatcher): void {
  expect(a.codes).toEqual(b.codes);
  const ta = a.tables;
  const tb = b.tables;
  expect(ta.v4.count).toBe(tb.v4.count);
  expect(ta.v6.count).toBe(tb.v6.count);
  // Compared as plain arrays: one build may hold views of the core's memory, the other copies.
  for (const key of ['v4Index', 'v6Index', 'setStart', 'setIds'] as const) {
    expect(Array.from(ta[key]), key).toEqual(Array.from(tb[key]));
  }
  expect(Array.from(ta.v4.starts)).toEqual(Array.from(tb.v4.starts));
  expect(Array.from(ta.v4.setOf)).toEqual(Array.from(tb.v4.setOf));
  expect(Array.from(ta.v6.starts)).toEqual(Array.from(tb.v6.starts));
  expect(Array.from(ta.v6.setOf)).toEqual(Array.from(tb.v6.setOf));
}

describe.skipIf(!hasGeoCorpora)('the core on real files', () => {
  test.each(UPSTREAM_GEOIP_FILES)(
    '%s: the same tables as the JavaScript builder, all lists and a subset',
    (file) => {
      const dat = GeoDat.open(resolve(geoCorpora, 'upstream', file));
      try {
        expectSameTables(build(dat, 'wasm'), build(dat, 'js'));
        const codes = [...dat.lists().keys()].reverse().slice(0, 2);
        expectSameTables(build(dat, 'wasm', codes), build(dat, 'js', codes));
      } finally {
        dat.close();
      }
    },
  );

  test('all 252 v2fly lists (over 64: set keys that need their members compared), read from a file', () => {
    const { bytes } = buildIpDat([resolve(geoCorpora, 'cidr/v2fly-geoip/text')]);
    const path = join(tmp, 'geoip-all.dat');
    writeFileSync(path, bytes);
    const dat = GeoDat.open(path);
    try {
      expect(dat.entries.length).toBeGreaterThan(64);
      const wasm = build(dat, 'wasm');
      expectSameTables(wasm, build(dat, 'js'));
      // The default engine is the core, and the big build's tables are copies (its memory goes).
      const auto = build(dat, 'auto');
      expectSameTables(auto, wasm);
      expect(auto.tables.v4.starts.buffer.byteLength).toBe(auto.tables.v4.starts.byteLength);
      expect(auto.matchCodes('1.0.1.1')).toEqual(['CN']);
    } finally {
      dat.close();
    }
  });
});

// ---- random files ------------------------------------------------------------------------------

const v4Cidr = fc.record({
  ip: fc.uint8Array({ minLength: 4, maxLength: 4 }),
  // Mostly long prefixes (many small networks), sometimes short ones and the whole space.
  prefix: fc.oneof(fc.integer({ min: 8, max: 32 }), fc.integer({ min: 0, max: 32 })),
});
const v6Cidr = fc.record({
  ip: fc.oneof(
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
    // Near the ends of the space, where the carries and the last address are.
    fc.constantFrom(new Uint8Array(16), new Uint8Array(16).fill(255)),
  ),
  prefix: fc.oneof(fc.integer({ min: 16, max: 128 }), fc.integer({ min: 0, max: 128 })),
});
const randomList = fc.record({
  code: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'),
  cidrs: fc.array(fc.oneof(v4Cidr, v6Cidr), { maxLength: 24 }),
  inverseMatch: fc.boolean(),
});

/** The list as builders write it: its networks merged and in order. */
function merged(list: IpList): IpList {
  const set = new CidrSet();
  for (const c of list.cidrs) set.addCidr(c);
  return { ...list, cidrs: set.build() };
}

/** Entries sharing a code must agree on inverse_match (else both builders refuse the file). */
function consistent(lists: IpList[]): IpList[] {
  const inverse = new Map<string, boolean>();
  return lists.map((l) => {
    const first = inverse.get(l.code) ?? l.inverseMatch;
    inverse.set(l.code, first);
    return { ...l, inverseMatch: first };
  });
}

/** Probe addresses: a listed network's address with its last bits changed, or any address. */
function addresses(seeds: readonly number[], lists: readonly IpList[]): Uint8Array[] {
  const cidrs = lists.flatMap((l) => l.cidrs);
  return seeds.map((seed, k) => {
    const c = cidrs.length > 0 && seed % 3 !== 0 ? cidrs[seed % cidrs.length] : undefined;
    if (c) {
      const a = Uint8Array.from(c.ip);
      a[a.length - 1] = (a[a.length - 1] as number) ^ ((seed >> 8) % 4);
      return a;
    }
    const a = new Uint8Array(k % 2 === 0 ? 4 : 16);
    for (let i = 0; i < a.length; i++) a[i] = (seed >> (i % 24)) & 255;
    return a;
  });
}

function text(a: Uint8Array): string {
  if (a.length === 4) return a.join('.');
  const groups: string[] = [];
  for (let k = 0; k < 16; k += 2) groups.push((((a[k] as number) << 8) | (a[k + 1] as number)).toString(16));
  return groups.join(':');
}

describe('the core on random files', () => {
  test('lists as builders write them: the core builds them, with the JavaScript tables and the linear answers', () => {
    fc.assert(
      fc.property(
        fc.array(randomList, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (raw, seeds) => {
          // One entry a code (two entries of one code, each in order, may overlap each other:
          // the next test has those).
          const lists = raw.map((l, k) => merged({ ...l, code: `${l.code}${k}` }));
          const dat = GeoDat.fromBytes(encodeGeoIpList(lists));
          const wasm = build(dat, 'wasm');
          expectSameTables(wasm, build(dat, 'js'));
          for (const a of addresses(seeds, lists)) {
            expect(wasm.matchCodes(text(a)).sort(), text(a)).toEqual(referenceIpMatch(lists, a).sort());
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  test('lists in any order (out of order, overlapping): the same matcher whichever builder takes them', () => {
    fc.assert(
      fc.property(fc.array(randomList, { minLength: 1, maxLength: 10 }), (raw) => {
        const dat = GeoDat.fromBytes(encodeGeoIpList(consistent(raw)));
        expectSameTables(build(dat, 'auto'), build(dat, 'js'));
      }),
      { numRuns: 150 },
    );
  });

  test('over 64 lists: set keys that are not the members themselves', () => {
    fc.assert(
      fc.property(fc.array(fc.array(v4Cidr, { maxLength: 4 }), { minLength: 65, maxLength: 90 }), (all) => {
        const lists = all.map((cidrs, k) => merged({ code: `L${k}`, cidrs, inverseMatch: k % 7 === 0 }));
        const dat = GeoDat.fromBytes(encodeGeoIpList(lists));
        expectSameTables(build(dat, 'wasm'), build(dat, 'js'));
      }),
      { numRuns: 25 },
    );
  });
});

// ---- what the core hands back ------------------------------------------------------------------

/** A geoip.dat of one entry whose GeoIP message `fields` writes. */
function datOf(fields: (w: WireWriter) => void): GeoDat {
  const w = new WireWriter();
  const start = w.fork();
  fields(w);
  w.join(1, start);
  return GeoDat.fromBytes(w.finish());
}

/** A CIDR field: its own fields in the order given. */
function cidr(w: WireWriter, parts: ('ip' | 'prefix' | 'unknown')[], ip: number[], prefix: number): void {
  const start = w.fork();
  for (const p of parts) {
    if (p === 'ip') w.bytesField(1, Uint8Array.from(ip));
    else if (p === 'prefix') w.uint32Field(2, prefix);
    else w.uint32Field(9, 7);
  }
  w.join(2, start);
}

describe('what the core hands to the JavaScript builder', () => {
  const cases: [string, (w: WireWriter) => void][] = [
    [
      'a CIDR with its prefix before its address',
      (w) => {
        w.stringField(1, 'X');
        cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
        cidr(w, ['prefix', 'ip'], [11, 0, 0, 0], 8);
      },
    ],
    [
      'an unknown field inside a CIDR',
      (w) => {
        w.stringField(1, 'X');
        cidr(w, ['ip', 'prefix', 'unknown'], [10, 0, 0, 0], 8);
      },
    ],
    [
      'an unknown field of the GeoIP message',
      (w) => {
        w.stringField(1, 'X');
        cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
        w.uint32Field(9, 1);
      },
    ],
    [
      'a list out of order',
      (w) => {
        w.stringField(1, 'X');
        cidr(w, ['ip', 'prefix'], [11, 0, 0, 0], 8);
        cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
      },
    ],
    [
      'overlapping networks in one list',
      (w) => {
        w.stringField(1, 'X');
        cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
        cidr(w, ['ip', 'prefix'], [10, 1, 0, 0], 16);
      },
    ],
    [
      'a code longer than the pieces the core reads',
      (w) => {
        w.stringField(1, 'X'.repeat(70_000));
        cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
      },
    ],
  ];

  test.each(cases)('%s: the JavaScript builder builds it', (_name, fields) => {
    const dat = datOf(fields);
    expect(() => build(dat, 'wasm')).toThrow(/handed the build back/);
    const auto = build(dat, 'auto');
    expectSameTables(auto, build(dat, 'js'));
    // The one list (its code is X, or 70,000 of them) holds 10.1.2.3.
    expect(auto.codes).toHaveLength(1);
    expect(auto.matchCodes('10.1.2.3')).toEqual(auto.codes);
  });

  test('corrupt data: the error of the JavaScript builder, with the file offset', () => {
    const dat = datOf((w) => {
      w.stringField(1, 'X');
      cidr(w, ['ip', 'prefix'], [10, 0, 0, 0], 8);
      // An address of 5 bytes.
      cidr(w, ['ip', 'prefix'], [10, 0, 0, 0, 1], 8);
    });
    const js = geoError(() => build(dat, 'js'));
    expect(js.message).toMatch(/byte \d+/);
    expect(geoError(() => build(dat, 'auto')).message).toBe(js.message);
  });

  test('a file cut short while open: the same error from both builders, naming the entry', () => {
    const path = join(tmp, 'cut.dat');
    writeFileSync(
      path,
      encodeGeoIpList([
        merged({ code: 'A', inverseMatch: false, cidrs: [{ ip: Uint8Array.of(10, 0, 0, 0), prefix: 8 }] }),
        merged({
          code: 'B',
          inverseMatch: false,
          cidrs: Array.from({ length: 300 }, (_, k) => ({
            ip: Uint8Array.of(11, k >> 8, k & 255, 0),
            prefix: 24,
          })),
        }),
      ]),
    );
    const dat = GeoDat.open(path);
    try {
      truncateSync(path, statSync(path).size - 100);
      // The core's read says so itself (it does not hand such a build back).
      const wasm = geoError(() => build(dat, 'wasm'));
      expect(wasm.message).toMatch(/cut\.dat: the entry at byte \d+ runs past the end of the file/);
      expect(geoError(() => build(dat, 'js')).message).toBe(wasm.message);
    } finally {
      dat.close();
    }
  });
});

describe.skipIf(!hasGeoCorpora)('a runtime without WebAssembly', () => {
  test('node --jitless builds through the JavaScript builder, with the same answers', () => {
    const file = resolve(geoCorpora, 'upstream/geoip-only-cn-private.dat');
    const out = execFileSync(
      process.execPath,
      [
        '--jitless',
        resolve(repoRoot, 'bin/run-ts.js'),
        resolve(repoRoot, 'test/geo/support/ip-core-jitless.ts'),
        file,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(JSON.parse(out.trim().split('\n').pop() as string)).toEqual({
      core: false,
      a: ['CN'],
      b: ['PRIVATE'],
    });
    const dat = GeoDat.open(file);
    try {
      expect(build(dat, 'wasm').matchCodes('1.0.1.1')).toEqual(['CN']);
    } finally {
      dat.close();
    }
  }, 60_000);
});
