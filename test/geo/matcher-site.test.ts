// The site matcher: each rule type and its edges, code@attr selectors, the RE2 -> RegExp
// translation, and differential property tests against a linear scan over every rule.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, test } from 'vitest';
import { DomainType, GeoError, type SiteList, type SiteRule } from '../../src/geo/index.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { compileSiteRegex, endTail, translateRe2 } from '../../src/geo/site/site-regex.js';
import { referenceSiteMatch } from './support/matcher-reference.js';

const rule = (type: DomainType, value: string, ...attrs: string[]): SiteRule => ({
  type,
  value,
  attributes: attrs.map((key) => ({ key, value: true })),
});
const full = (v: string, ...a: string[]) => rule(DomainType.Full, v, ...a);
const domain = (v: string, ...a: string[]) => rule(DomainType.RootDomain, v, ...a);
const keyword = (v: string, ...a: string[]) => rule(DomainType.Plain, v, ...a);
const regexp = (v: string, ...a: string[]) => rule(DomainType.Regex, v, ...a);

function matcher(lists: Record<string, SiteRule[]>, selectors?: string[]): SiteMatcher {
  return SiteMatcher.compile(
    Object.entries(lists).map(([code, rules]) => ({ code, rules })),
    selectors,
  );
}

describe('rule types', () => {
  test('full matches exactly the name, not its subdomains or parents', () => {
    const m = matcher({ A: [full('www.example.com')] });
    expect(m.matchCodes('www.example.com')).toEqual(['A']);
    expect(m.matchCodes('a.www.example.com')).toEqual([]);
    expect(m.matchCodes('example.com')).toEqual([]);
    expect(m.matchCodes('www.example.co')).toEqual([]);
  });

  test('domain matches the name and subdomains on a label boundary only', () => {
    const m = matcher({ A: [domain('example.com')] });
    expect(m.matchCodes('example.com')).toEqual(['A']);
    expect(m.matchCodes('a.example.com')).toEqual(['A']);
    expect(m.matchCodes('a.b.c.example.com')).toEqual(['A']);
    expect(m.matchCodes('badexample.com')).toEqual([]);
    expect(m.matchCodes('example.com.evil')).toEqual([]);
    expect(m.matchCodes('xample.com')).toEqual([]);
    expect(m.matchCodes('com')).toEqual([]);
  });

  test('a single-label domain rule matches a whole TLD', () => {
    const m = matcher({ CN: [domain('cn')] });
    expect(m.matchCodes('cn')).toEqual(['CN']);
    expect(m.matchCodes('gov.cn')).toEqual(['CN']);
    expect(m.matchCodes('cnn.com')).toEqual([]);
    expect(m.matchCodes('xcn')).toEqual([]);
  });

  test('keyword matches anywhere, including at both ends and as the whole name', () => {
    const m = matcher({ K: [keyword('goo')] });
    expect(m.matchCodes('goo')).toEqual(['K']);
    expect(m.matchCodes('google.com')).toEqual(['K']);
    expect(m.matchCodes('a.b.goo')).toEqual(['K']);
    expect(m.matchCodes('xgooy')).toEqual(['K']);
    expect(m.matchCodes('go.o')).toEqual([]);
    expect(m.matchCodes('gog')).toEqual([]);
  });

  test('overlapping keywords are all found (one a suffix of another)', () => {
    const m = matcher({ A: [keyword('abcd')], B: [keyword('bcd')], C: [keyword('cd')], D: [keyword('bce')] });
    expect(m.matchCodes('xabcdx')).toEqual(['A', 'B', 'C']);
    expect(m.matchCodes('abcbce')).toEqual(['D']);
  });

  test('regexp searches unanchored unless the pattern anchors', () => {
    const m = matcher({ U: [regexp('ads\\d+')], S: [regexp('^ads')], E: [regexp('\\.cn$')] });
    expect(m.matchCodes('x.ads12.com')).toEqual(['U']);
    expect(m.matchCodes('ads.example.cn')).toEqual(['S', 'E']);
    expect(m.matchCodes('ads1.cn')).toEqual(['U', 'S', 'E']);
    expect(m.matchCodes('x.cn.com')).toEqual([]);
  });

  test('regexp keeps its case: an upper-case literal never matches (queries are lower-cased)', () => {
    const m = matcher({ A: [regexp('Example')], B: [regexp('(?i)example')] });
    expect(m.matchCodes('Example.com')).toEqual(['B']);
  });

  test('RE2-only syntax runs on re2js and still matches', () => {
    const m = matcher({
      P: [regexp('^[[:digit:]]+\\.example$')],
      Q: [regexp('\\pN\\.x\\z')],
      R: [regexp('\\Qa.b\\E')],
    });
    expect(m.re2jsPatterns).toHaveLength(3);
    expect(m.matchCodes('123.example')).toEqual(['P']);
    expect(m.matchCodes('a1.x')).toEqual(['Q']);
    expect(m.matchCodes('a.b')).toEqual(['R']);
    expect(m.matchCodes('axb')).toEqual([]);
  });

  test('a pattern RE2 rejects is an error naming the list', () => {
    expect(() => matcher({ BAD: [regexp('(?=a)b')] })).toThrow(GeoError);
    expect(() => matcher({ BAD: [regexp('(?=a)b')] })).toThrow(/list BAD: invalid regexp/);
  });

  test('upper case and one trailing dot in the query are ignored; two dots are not', () => {
    const m = matcher({ A: [full('www.example.com')], B: [domain('example.org')] });
    expect(m.matchCodes('WWW.Example.COM')).toEqual(['A']);
    expect(m.matchCodes('www.example.com.')).toEqual(['A']);
    expect(m.matchCodes('Sub.Example.Org.')).toEqual(['B']);
    expect(m.matchCodes('www.example.com..')).toEqual([]);
  });

  test('rule values in upper case (from a foreign file) match lower-case queries', () => {
    const m = matcher({ A: [full('WWW.X.COM')], B: [domain('Y.Org')], C: [keyword('ZZ')] });
    expect(m.matchCodes('www.x.com')).toEqual(['A']);
    expect(m.matchCodes('a.y.org')).toEqual(['B']);
    expect(m.matchCodes('azzb')).toEqual(['C']);
  });

  test('every matching list is reported once, in list order, whatever the rule that hit', () => {
    const m = matcher({
      A: [domain('example.com'), full('www.example.com'), keyword('exam')],
      B: [regexp('^www\\.')],
      C: [domain('other.com')],
      D: [keyword('ample')],
    });
    expect(m.matchCodes('www.example.com')).toEqual(['A', 'B', 'D']);
    const out = new Uint32Array(m.size);
    expect(m.match('www.example.com', out)).toBe(3);
    expect([...out.subarray(0, 3)]).toEqual([0, 1, 3]);
  });

  test('an empty keyword matches every name, the empty name too', () => {
    const m = matcher({ E: [keyword('')], F: [full('a')] });
    expect(m.matchCodes('')).toEqual(['E']);
    expect(m.matchCodes('a')).toEqual(['E', 'F']);
  });

  test('two entries with the same code count as one list', () => {
    const m = SiteMatcher.compile([
      { code: 'A', rules: [full('a.com')] },
      { code: 'a', rules: [full('b.com')] },
    ]);
    expect(m.codes).toEqual(['A']);
    expect(m.matchCodes('a.com')).toEqual(['A']);
    expect(m.matchCodes('b.com')).toEqual(['A']);
  });

  test('a result buffer smaller than the code count is refused', () => {
    const m = matcher({ A: [full('a')], B: [full('b')] });
    expect(() => m.match('a', new Uint32Array(1))).toThrow(RangeError);
  });
});

describe('code@attr selectors', () => {
  const lists = {
    GOOGLE: [
      domain('google.com'),
      domain('doubleclick.net', 'ads'),
      full('ads.g.cn', 'ads', 'cn'),
      keyword('gads', 'ads'),
    ],
    CN: [domain('cn')],
  };

  test('a selector counts only the rules carrying every attribute', () => {
    const m = matcher(lists, ['google@ads', 'google@ads@cn', 'google', 'cn']);
    expect(m.codes).toEqual(['GOOGLE@ads', 'GOOGLE@ads@cn', 'GOOGLE', 'CN']);
    expect(m.matchCodes('x.doubleclick.net')).toEqual(['GOOGLE@ads', 'GOOGLE']);
    expect(m.matchCodes('ads.g.cn')).toEqual(['GOOGLE@ads', 'GOOGLE@ads@cn', 'GOOGLE', 'CN']);
    expect(m.matchCodes('www.google.com')).toEqual(['GOOGLE']);
    expect(m.matchCodes('gads.example')).toEqual(['GOOGLE@ads', 'GOOGLE']);
  });

  test('selectors are case-insensitive, duplicates collapse, unknown codes are an error', () => {
    const m = matcher(lists, ['Google@ADS', 'google@ads']);
    expect(m.codes).toEqual(['GOOGLE@ads']);
    expect(() => matcher(lists, ['nope'])).toThrow(/no site list "nope"/);
  });

  test('an attribute no rule carries selects nothing', () => {
    const m = matcher(lists, ['google@none']);
    expect(m.matchCodes('google.com')).toEqual([]);
  });
});

describe('RE2 to RegExp translation', () => {
  test('the real-world shapes translate and keep a required literal', () => {
    expect(translateRe2('(^|\\.)[1-5]gaoap\\.com$')).toMatchObject({
      source: '(^|\\u{2e})[1-5]gaoap\\u{2e}com$',
      literal: 'gaoap.com',
      dotless: false,
      countedGroup: false,
    });
    expect(translateRe2('javdb\\d+\\.com$')?.literal).toBe('javdb');
    expect(translateRe2('^ab+c')?.literal).toBe('a');
    expect(translateRe2('a|bcd')?.literal).toBe('');
    expect(translateRe2('x(abc)y')?.literal).toBe('x');
  });

  test('dotless: anchored at both ends with no part that matches a dot', () => {
    expect(translateRe2('^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$')?.dotless).toBe(true);
    expect(translateRe2('^\\w+$')?.dotless).toBe(true);
    for (const p of [
      '^a.b$',
      '^a\\.b$',
      '^[^x]$',
      '^[+-/]$',
      '^\\W$',
      '^\\D$',
      '^\\S$',
      '^a|b$',
      'a$',
      '^a',
      '^a\\$',
    ])
      expect(translateRe2(p)?.dotless, p).toBe(false);
  });

  test.each([
    '[[:alpha:]]',
    '\\pL',
    '\\Qx\\E',
    '(?i)abc',
    '(?P<n>a)',
    '\\z',
    '\\x41',
    'a{,3}',
    '[]a]',
    '[a-c-e]',
    '\\n',
    '\\B',
  ])('%s is left to re2js', (pattern) => {
    expect(translateRe2(pattern)).toBeUndefined();
  });

  test('dot, \\s and anchors mean what RE2 means on \\r, \\v, \\u00a0, \\n and astral characters', () => {
    const cases: [string, string][] = [
      ['^a.b$', 'a\rb'],
      ['^a.b$', 'a\nb'],
      ['^a.b$', 'a😀b'],
      ['^a\\sb$', 'a\vb'],
      ['^a\\sb$', 'a\u00a0b'],
      ['^a\\Sb$', 'a\u00a0b'],
      ['a$', 'a\n'],
      ['^[^x]$', '😀'],
      ['\\bb', 'éb'],
      ['^\\w+$', 'é'],
    ];
    for (const [pattern, input] of cases) {
      const re = compileSiteRegex(pattern);
      expect(re.engine, pattern).toBe('native');
      expect(re.test(input), `${pattern} on ${JSON.stringify(input)}`).toBe(
        RE2JS.compile(pattern).test(input),
      );
    }
  });

  test('the tail before a final $: single characters and exact counts, last first; none otherwise', () => {
    const tail = (p: string) =>
      endTail((translateRe2(p) as NonNullable<ReturnType<typeof translateRe2>>).tree);
    expect(tail('(^|\\.)[a-z][1-9][0-9][a-z]\\.com$')).toEqual([
      [109, 109],
      [111, 111],
      [99, 99],
      [46, 46],
      [97, 122],
      [48, 57],
      [49, 57],
      [97, 122],
    ]);
    expect(tail('x[0-9]{2}$')).toEqual([
      [48, 57],
      [48, 57],
      [120, 120],
    ]);
    expect(tail('ab+c$')).toEqual([[99, 99]]);
    expect(tail('a|bc$')).toEqual([]);
    expect(tail('abc')).toEqual([]);
    expect(tail('a$b')).toEqual([]);
  });

  test('a pattern the translator accepts is valid RE2 (so RE2 is not asked), random token strings valid or not', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      '.',
      '\\.',
      '\\d',
      '\\w',
      '\\b',
      '\\B',
      '\\s',
      '^',
      '$',
      '-',
      '(',
      ')',
      '(?:',
      '|',
      '*',
      '+',
      '?',
      '{2}',
      '{1,3}',
      '{3,1}',
      '{0,}',
      '{1001}',
      '{999}',
      '[',
      ']',
      '[a-c]',
      '[^a]',
      '[]',
      '[a-]',
      '[z-a]',
      '\\',
      '\\x',
      '\\Q',
      'é',
      '{',
      '}',
      '(?i)',
      '\\pL',
      '\\-',
      '[[:alpha:]]',
    );
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 10 }).map((t) => t.join('')),
        (p) => {
          const t = translateRe2(p);
          if (!t || t.countedGroup) return;
          accepted++;
          expect(() => RE2JS.compile(p), p).not.toThrow();
        },
      ),
      { numRuns: 20_000, seed: 77 },
    );
    expect(accepted).toBeGreaterThan(2000);
    // Counts on groups nest, and RE2 refuses a product over 1000: those are checked by RE2 itself.
    expect(translateRe2('(a{2}){501}')?.countedGroup).toBe(true);
    expect(() => compileSiteRegex('(a{2}){501}')).toThrow(/invalid regexp/);
    expect(compileSiteRegex('(a{2}){500}').engine).toBe('native');
    expect(translateRe2('a{1000}(b){2}c{3}')?.countedGroup).toBe(true);
    expect(translateRe2('(ab)+c{3}')?.countedGroup).toBe(false);
  });

  test('random patterns: the native translation finds a match exactly when re2js does', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'c',
      '.',
      '\\.',
      '\\d',
      '\\D',
      '\\w',
      '\\W',
      '\\s',
      '\\S',
      '\\b',
      '\\B',
      '^',
      '$',
      '-',
      '_',
      '[a-c]',
      '[^a]',
      '[-a]',
      '[a-]',
      '[\\d.]',
      '[\\s]',
      '[^\\w]',
      '}',
      ']',
      'é',
      '😀',
      '\\-',
      '\\$',
      '\\*',
    );
    const quant = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??');
    const piece = fc.tuple(atom, quant).map(([a, q]) => a + q);
    const seq = fc.array(piece, { minLength: 0, maxLength: 5 }).map((p) => p.join(''));
    const pattern = fc.oneof(
      seq,
      fc.tuple(seq, seq).map(([x, y]) => `${x}|${y}`),
      fc.tuple(seq, seq, seq, quant).map(([x, y, z, q]) => `${x}(${y}|${z})${q}${x}`),
      fc.tuple(seq, seq).map(([x, y]) => `(?:${x})${y}`),
      seq.map((x) => `^${x}$`),
      fc.tuple(seq, seq).map(([x, y]) => `^(${x}|${y})$`),
    );
    const input = fc
      .array(
        fc.constantFrom('a', 'b', 'c', '.', '-', '1', '_', ' ', '\n', '\r', '\t', 'é', '😀', 'A', '$', '}'),
        {
          maxLength: 8,
        },
      )
      .map((c) => c.join(''));
    let translated = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (p, inputs) => {
        let re2: RE2JS;
        try {
          re2 = RE2JS.compile(p);
        } catch {
          return; // not RE2 at all: the compiler rejects it before the matcher sees it
        }
        const ours = compileSiteRegex(p);
        if (ours.engine === 'native') translated++;
        for (const s of inputs) {
          expect(ours.test(s), `${p} on ${JSON.stringify(s)}`).toBe(re2.test(s));
          if (ours.literal !== '' && re2.test(s)) expect(s.includes(ours.literal)).toBe(true);
          if (ours.dotless && s.includes('.')) expect(re2.test(s), `${p} is dotless`).toBe(false);
        }
      }),
      { numRuns: 1500, seed: 20707 },
    );
    expect(translated).toBeGreaterThan(700);
  });
});

describe('differential: matcher vs a linear scan of every rule', () => {
  const label = fc.constantFrom('a', 'b', 'ab', 'ba', 'c1', 'x-y', 'cn', 'com', 'a1b', 'c9');
  const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
  const regexPool = fc.constantFrom(
    '^a',
    'b$',
    '(^|\\.)ab\\.com$',
    'a\\.b',
    '^[a-c]+\\.cn$',
    'c\\d',
    '\\bba\\b',
    'x-y',
    '^(a|b)\\.',
    '.{6,}',
    '[[:digit:]]',
    '^cn$',
    'ab?a',
    'A',
    // Tails of fixed characters before `$` (the matcher checks them before running the regexp).
    '(^|\\.)[a-c][1-9][a-z]\\.com$',
    'c[0-9]{1}\\.cn$',
    '[ab]{2}$',
    '(a|b)c1$',
    '.a$',
  );
  const attr = fc.subarray(['ads', 'cn'], { minLength: 0, maxLength: 2 });
  const ruleArb: fc.Arbitrary<SiteRule> = fc.oneof(
    fc.tuple(name, attr).map(([v, a]) => full(v, ...a)),
    fc.tuple(name, attr).map(([v, a]) => domain(v, ...a)),
    fc
      .tuple(fc.constantFrom('a', 'b.', 'ab', '.c', '1', 'x-', 'cn.com'), attr)
      .map(([v, a]) => keyword(v, ...a)),
    fc.tuple(regexPool, attr).map(([v, a]) => regexp(v, ...a)),
  );
  const listsArb = fc
    .array(fc.array(ruleArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 })
    .map((rs): SiteList[] => rs.map((rules, k) => ({ code: `L${k}`, rules })));
  const query = fc.oneof(
    name,
    fc
      .tuple(
        fc.constantFrom('', 'x', 'ab', 'a.b'),
        fc.constantFrom('', '.'),
        name,
        fc.constantFrom('', '.', 'b', '..'),
      )
      .map(([pre, dot, n, post]) => `${pre}${dot}${n}${post}`),
    name.map((n) => n.toUpperCase()),
  );

  test('random lists and queries: the same codes, every list', () => {
    fc.assert(
      fc.property(listsArb, fc.array(query, { minLength: 1, maxLength: 10 }), (lists, queries) => {
        const m = SiteMatcher.compile(lists);
        for (const q of queries) expect(m.matchCodes(q), q).toEqual(referenceSiteMatch(lists, q));
      }),
      { numRuns: 400, seed: 3904 },
    );
  });

  test('random lists and queries with code@attr selectors', () => {
    const selectors = fc.array(
      fc.tuple(fc.nat(5), fc.subarray(['ads', 'cn'])).map(([k, a]) => [`l${k}`, ...a].join('@')),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(
        listsArb,
        selectors,
        fc.array(query, { minLength: 1, maxLength: 10 }),
        (lists, sels, queries) => {
          const usable = sels.filter((s) => Number(s.split('@')[0]?.slice(1)) < lists.length);
          if (usable.length === 0) return;
          const m = SiteMatcher.compile(lists, usable);
          for (const q of queries) expect(m.matchCodes(q), q).toEqual(referenceSiteMatch(lists, q, usable));
        },
      ),
      { numRuns: 300, seed: 13172 },
    );
  });

  test('one matcher answers many queries in a row with a reused buffer', () => {
    const lists: SiteList[] = [
      { code: 'A', rules: [domain('a.com'), regexp('^x')] },
      { code: 'B', rules: [keyword('com'), full('b.org')] },
    ];
    const m = SiteMatcher.compile(lists);
    const out = new Uint32Array(m.size);
    const seen: string[][] = [];
    for (const q of ['a.com', 'b.org', 'x.org', 'nothing', 'x.a.com']) {
      const n = m.match(q, out);
      seen.push([...out.subarray(0, n)].map((i) => m.codes[i] as string));
    }
    expect(seen).toEqual([['A', 'B'], ['B'], ['A'], [], ['A', 'B']]);
  });
});
