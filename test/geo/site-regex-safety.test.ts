// Hostile regexps (issue 12): patterns whose backtracking explodes go to re2js, a .dat full of them
// loads and answers 253-character adversarial names correctly, and every pattern left native obeys
// the static bound, checked on concrete inputs by an independent backtracker that counts its tries.
import { resolve } from 'node:path';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, test } from 'vitest';
import { DomainType, GeoDat, GeoError } from '../../src/geo/index.js';
import { backtrackBounded, MAX_WAYS } from '../../src/geo/site/regex-backtrack-bound.js';
import { compileSites } from '../../src/geo/site/site-compiler.js';
import { encodeGeoSiteList } from '../../src/geo/site/site-encoder.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { compileSiteRegex, translateRe2 } from '../../src/geo/site/site-regex.js';
import { parseSiteSource } from '../../src/geo/site/site-source.js';
import { countBacktracking } from './support/backtrack-reference.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';

const a = (n: number) => 'a'.repeat(n);

/**
 * Patterns a backtracker runs in exponential (or high-degree polynomial) time, each with a name
 * that takes V8 0.8 s or more (most: over 3 s, unfinished) and whether the matcher's prefilter
 * lets the regexp run on it (the name holds its literal; an unanchored pattern ending in a literal
 * matches any name holding it at once, hence the anchored twins).
 */
const HOSTILE: readonly (readonly [pattern: string, name: string, runs: boolean])[] = [
  ['^(a+)+$', `${a(252)}b`, true],
  ['(a|a)*b', a(253), false],
  ['^(a|a)*b$', `${a(251)}bc`, true],
  ['(a*)*b', a(253), false],
  ['^(a*)*b$', `${a(251)}bc`, true],
  ['(.*a){20}', `${a(19)}${'x'.repeat(234)}`, true],
  ['(a?){25}a{25}', `${a(24)}.${'b'.repeat(228)}`, true],
  ['(\\w+\\.?)+com$', `${a(249)}com!`, true],
  ['^([a-z0-9]+-?)+\\.com$', `${a(248)}.com!`, true],
  // Real, in domain-list-community.
  ['^(.+\\.)*zh\\.okaapps\\.com$', `${'a.'.repeat(119)}zh.okaapps.comx`, true],
  ['\\d*\\d*\\d*x', '1'.repeat(253), false],
  ['\\d*\\d*\\d*\\.x$', `${'1'.repeat(249)}.x.y`, true],
  ['.*.*.*=', 'x'.repeat(253), false],
  ['(a|b|ab)*c', 'ab'.repeat(126), false],
  ['^(a|b|ab)*c$', `${'ab'.repeat(125)}cd`, true],
  [`${'(|)'.repeat(24)}x`, a(253), false],
  [`${'(|)'.repeat(24)}\\.x$`, `${a(249)}.x.y`, true],
  [`${'(a|a)'.repeat(20)}x`, a(253), false],
  ['(a{1,10}){1,10}b', a(253), false],
  ['^(a{1,10}){1,10}b$', `${a(251)}bc`, true],
  ['([a-z]|[0-9]|[b-y]|[1-8]){0,1000}!', a(253), false], // over the analysis budget
];

/** Names that do match, to see the slow engine says yes too. */
const MATCHING: readonly (readonly [pattern: string, name: string])[] = [
  ['^(a+)+$', a(253)],
  ['(a|a)*b', `${a(252)}b`],
  ['(.*a){20}', `${'xa'.repeat(20)}.com`],
  ['(a?){25}a{25}', a(25)],
  ['(\\w+\\.?)+com$', `${'ab.'.repeat(83)}com`],
  ['^(.+\\.)*zh\\.okaapps\\.com$', `${'a.'.repeat(119)}zh.okaapps.com`],
  ['^(.+\\.)*zh\\.okaapps\\.com$', 'zh.okaapps.com'],
  ['\\d*\\d*\\d*x', `${'1'.repeat(252)}x`],
];

/** Builds a geosite.dat from domain-list-community style sources, one list per pattern. */
function hostileDat(patterns: readonly string[]): GeoDat {
  const sources = patterns.map((p, i) =>
    parseSiteSource(`hostile-${i}`, `# list ${i}\nregexp:${p}\nfull:list${i}.example\n`, `data/hostile-${i}`),
  );
  return GeoDat.fromBytes(encodeGeoSiteList(compileSites(sources)), 'hostile.dat');
}

describe('patterns whose backtracking explodes run on re2js', () => {
  test.each(HOSTILE)('%s', (pattern, name) => {
    // Within the translated subset, so only the bound keeps it off the native engine ...
    const tree = translateRe2(pattern)?.tree;
    if (!tree) throw new Error(`${pattern} not translated`);
    expect(compileSiteRegex(pattern).engine).toBe('re2js');
    // ... and the counting backtracker, on the start of the adversarial name, passes the bound
    // too (except where the refusal is the analysis budget: 1000 counted iterations).
    if (pattern.includes('{0,1000}')) return;
    const short = name.slice(0, 14);
    const tries = [short, `${short}!`].map((s) => countBacktracking(tree, s, MAX_WAYS));
    expect(tries.some((t) => t.exceeded)).toBe(true);
  });

  test('a .dat holding them loads and answers 253-character adversarial names correctly', () => {
    const patterns = [...new Set([...HOSTILE, ...MATCHING].map(([p]) => p))];
    const dat = hostileDat(patterns);
    const lists = dat.entries.map((e) => dat.readSite(e));
    expect(lists.map((l) => l.rules.find((r) => r.type === DomainType.Regex)?.value).sort()).toEqual(
      [...patterns].sort(),
    );
    const m = SiteMatcher.compile(lists);
    expect(m.re2jsPatterns.length).toBe(patterns.length);
    const codeOf = (p: string) => `HOSTILE-${patterns.indexOf(p)}`;
    for (const [pattern, name, runs] of HOSTILE) {
      expect(name.length, pattern).toBeLessThanOrEqual(253);
      const { literal, dotless } = compileSiteRegex(pattern);
      expect(name.includes(literal) && !(dotless && name.includes('.')), `${pattern} runs`).toBe(runs);
      expect(m.matchCodes(name), `${pattern} on ${name}`).not.toContain(codeOf(pattern));
    }
    for (const [pattern, name] of MATCHING) {
      expect(name.length, pattern).toBeLessThanOrEqual(253);
      expect(m.matchCodes(name), `${pattern} on ${name}`).toContain(codeOf(pattern));
    }
    // Every list against every name, as RE2 answers.
    for (const [, name] of [...HOSTILE, ...MATCHING]) {
      const want = patterns.filter((p) => RE2JS.compile(p).test(name)).map(codeOf);
      expect(m.matchCodes(name).sort(), name).toEqual(want.sort());
    }
    expect(m.matchCodes('list3.example')).toContain('HOSTILE-3');
  });
});

test('deep nesting: 200 levels run on re2js, 5000 are refused as RE2 refuses them, never a crash', () => {
  const nested = (depth: number) => `${'('.repeat(depth)}a${')'.repeat(depth)}`;
  expect(compileSiteRegex(nested(100)).engine).toBe('native');
  const deep = compileSiteRegex(nested(200));
  expect(deep.engine).toBe('re2js');
  expect(deep.test('xay')).toBe(true);
  expect(() => compileSiteRegex(nested(5000))).toThrow(GeoError);
  expect(() => compileSiteRegex(nested(50_000))).toThrow(/nests too deeply/);
});

describe('what stays native', () => {
  test.each([
    '(\\w+\\.)+com$', // iterations end at a dot, which \w cannot match: one way
    '^(?:[a-z0-9-]+\\.)*example\\.com$',
    '.+\\.dkr\\.ecr\\.[^\\.]+\\.amazonaws\\.com$', // two loops, but a dot between that [^.] refuses
    '(^|\\.)zayy([0-9]{0,3})?\\.xyz$', // two ways through `([0-9]{0,3})?` when empty: fewer than 4
    '^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$',
    '(a|ab)*c',
    'a*b*c*',
    '\\w+-\\d+',
    '[a-z]{1000}',
    `${'(a|a)'.repeat(2)}x`, // four ways: the limit
  ])('%s', (pattern) => {
    const re = compileSiteRegex(pattern);
    expect(re.engine).toBe('native');
    const tree = translateRe2(pattern)?.tree;
    if (!tree) throw new Error('not translated');
    for (const s of [a(30), `${'a.'.repeat(15)}!`, `${'ab'.repeat(15)}c`, '1-'.repeat(15), 'zayy12.xyz']) {
      const counted = countBacktracking(tree, s, MAX_WAYS);
      expect(counted.exceeded, `${pattern} on ${s}`).toBe(false);
      expect(counted.matched, `${pattern} on ${s}`).toBe(RE2JS.compile(pattern).test(s));
    }
  });

  test('a limit of one way refuses what two ways need; eight ways are refused at four', () => {
    const tree = (p: string) => translateRe2(p)?.tree ?? { kind: 'seq' as const, items: [] };
    expect(backtrackBounded(tree('(^|\\.)zayy([0-9]{0,3})?\\.xyz$'), 1)).toBe(false);
    expect(backtrackBounded(tree('(^|\\.)zayy([0-9]{0,3})?\\.xyz$'), 2)).toBe(true);
    expect(backtrackBounded(tree(`${'(a|a)'.repeat(3)}x`))).toBe(false);
    expect(backtrackBounded(tree(`${'(a|a)'.repeat(3)}x`), 8)).toBe(true);
  });

  test('a loop whose body can match nothing is refused (V8 stops an empty pass; the rule does not rely on it)', () => {
    for (const p of ['(a?)*b', '(a?)+b', '(\\b)*a', '(a|)*b', '(a*){2,}b'])
      expect(compileSiteRegex(p).engine, p).toBe('re2js');
    for (const p of ['(a?){3}b', '(ab?)*c']) expect(compileSiteRegex(p).engine, p).toBe('native');
  });
});

describe('random patterns: native only when the counting backtracker stays within the bound', () => {
  const atom = fc.constantFrom(
    'a',
    'b',
    '1',
    '.',
    '\\.',
    '\\d',
    '\\w',
    '\\W',
    '[a-c]',
    '[^a]',
    '\\b',
    '^',
    '$',
  );
  const quant = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?');
  const piece = fc.tuple(atom, quant).map(([x, q]) => x + q);
  const seq = fc.array(piece, { minLength: 0, maxLength: 4 }).map((p) => p.join(''));
  const pattern = fc.oneof(
    seq,
    fc.tuple(seq, seq).map(([x, y]) => `${x}|${y}`),
    fc.tuple(seq, seq, seq, quant).map(([x, y, z, q]) => `${x}(${y}|${z})${q}${x}`),
    fc.tuple(seq, quant, seq).map(([x, q, y]) => `(?:${x})${q}${y}`),
    fc.tuple(seq, seq, quant, quant).map(([x, y, q, r]) => `^((${x})${q}${y})${r}$`),
    fc.tuple(seq, seq, quant).map(([x, y, q]) => `(${x}|${y})${q}(${y}|${x})${q}`),
  );
  const char = fc.constantFrom('a', 'b', 'c', '1', '.', '-', '_');
  const randomInput = fc.array(char, { maxLength: 10 }).map((c) => c.join(''));
  const unit = fc.array(char, { minLength: 1, maxLength: 3 }).map((c) => c.join(''));
  // A short unit repeated: where ambiguous patterns multiply their ways.
  const repeated = fc
    .tuple(unit, fc.constantFrom('', '!', '.', 'b'))
    .map(([u, end]) => u.repeat(12).slice(0, 12) + end);

  test('native patterns never pass the bound on any input tried, and their parse means what RE2 means', () => {
    let native = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        pattern,
        fc.array(fc.oneof(randomInput, repeated), { minLength: 1, maxLength: 6 }),
        (p, inputs) => {
          let re2: RE2JS;
          try {
            re2 = RE2JS.compile(p);
          } catch {
            return;
          }
          const translated = translateRe2(p);
          if (!translated) return;
          const ours = compileSiteRegex(p);
          if (ours.engine === 're2js') {
            refused++;
            return;
          }
          native++;
          for (const s of [...inputs, a(12), '1'.repeat(12), 'a.'.repeat(6), 'ab'.repeat(6)]) {
            const counted = countBacktracking(translated.tree, s, MAX_WAYS);
            expect(counted.exceeded, `${p} on ${JSON.stringify(s)}: ${counted.maxTries} tries`).toBe(false);
            expect(counted.matched, `${p} on ${JSON.stringify(s)}`).toBe(re2.test(s));
            expect(ours.test(s), `${p} on ${JSON.stringify(s)}`).toBe(re2.test(s));
          }
        },
      ),
      { numRuns: 3000, seed: 120412 },
    );
    // Both sides of the rule are exercised.
    expect(native).toBeGreaterThan(600);
    expect(refused).toBeGreaterThan(600);
  });
});

describe.skipIf(!hasGeoCorpora)('the real regexps of dlc.dat', () => {
  test('162 of the 163 distinct patterns stay native; the one left is exponential', () => {
    const dat = GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat'));
    const patterns = new Set<string>();
    let rules = 0;
    for (const e of dat.entries) {
      for (const r of dat.readSite(e).rules) {
        if (r.type !== DomainType.Regex) continue;
        rules++;
        patterns.add(r.value);
      }
    }
    expect(rules).toBe(374);
    expect(patterns.size).toBe(163);
    const refused = [...patterns].filter((p) => compileSiteRegex(p).engine === 're2js');
    expect(refused).toEqual(['^(.+\\.)*zh\\.okaapps\\.com$']);
    // Every native one keeps within the bound on names shaped like its targets and like attacks.
    const names = [
      `${'a.'.repeat(20)}com`,
      `${'a1-'.repeat(14)}.amazonaws.com`,
      'r1---sn-2x3abcde.googlevideo.com',
      '9'.repeat(40),
      `${'x.'.repeat(10)}awsdns-12.co.uk`,
      'epicgames-download1-123.file.myqcloud.com',
    ];
    for (const p of patterns) {
      if (refused.includes(p)) continue;
      const tree = translateRe2(p)?.tree;
      if (!tree) throw new Error(`${p} not translated`);
      for (const name of names) {
        const counted = countBacktracking(tree, name, MAX_WAYS);
        expect(counted.exceeded, `${p} on ${name}`).toBe(false);
        expect(counted.matched, `${p} on ${name}`).toBe(RE2JS.compile(p).test(name));
      }
    }
  });
});
