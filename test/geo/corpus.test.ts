// Builds from the real upstream sources and compares with the real upstream release files, byte
// for byte. Needs ../shared/corpora beside the repository.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildIpDat, buildSiteDat, GeoDat } from '../../src/geo/index.js';
import { WireWriter } from '../../src/geo/wire/wire-writer.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';

const upstream = (name: string) => readFileSync(resolve(geoCorpora, 'upstream', name));
const v2flyText = resolve(geoCorpora, 'cidr/v2fly-geoip/text');

/** Index of the first differing byte, or -1 when equal; gives a readable failure. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

// CI clones the repository with shared/ beside it; there missing corpora are a failure.
test.runIf(!hasGeoCorpora && process.env.CI === 'true')('the geo corpora are present under CI', () => {
  expect(hasGeoCorpora, `missing ${geoCorpora}`).toBe(true);
});

describe.skipIf(!hasGeoCorpora)('byte-identical to the upstream builders', () => {
  test('the whole domain-list-community tree compiles to upstream dlc.dat', () => {
    const { bytes, lists, rules } = buildSiteDat(resolve(geoCorpora, 'domain-list-community/data'));
    expect({ lists, rules }).toEqual({ lists: 1536, rules: 109236 });
    expect(firstDifference(bytes, upstream('dlc.dat'))).toBe(-1);
  });

  test('--codes builds exactly the upstream entries of those lists', () => {
    const { bytes } = buildSiteDat(resolve(geoCorpora, 'domain-list-community/data'), {
      codes: ['google', 'cn'],
    });
    const ref = GeoDat.fromBytes(upstream('dlc.dat'));
    // Each upstream entry again as a top-level field 1 (tag, length, the entry's own bytes).
    const w = new WireWriter();
    for (const code of ['CN', 'GOOGLE']) w.bytesField(1, ref.entryBytes(ref.get(code)));
    const expected = w.finish();
    expect(firstDifference(bytes, expected)).toBe(-1);
  });

  test('cn and private text lists compile to upstream geoip-only-cn-private.dat', () => {
    const { bytes } = buildIpDat([v2flyText], { codes: ['cn', 'private'] });
    expect(firstDifference(bytes, upstream('geoip-only-cn-private.dat'))).toBe(-1);
  });

  test.each(['cn', 'de', 'jp', 'private'])(
    'single-code build of %s equals upstream geoip-<code>.dat',
    (code) => {
      const { bytes } = buildIpDat([resolve(v2flyText, `${code}.txt`)]);
      expect(firstDifference(bytes, upstream(`geoip-${code}.dat`))).toBe(-1);
    },
  );
});
