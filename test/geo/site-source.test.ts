import { describe, expect, test } from 'vitest';
import { GeoError } from '../../src/geo/index.js';
import { parseSiteSource } from '../../src/geo/site/site-source.js';

const parse = (text: string, code = 'test') => parseSiteSource(code, text, `data/${code}`);
const rule = (text: string) => {
  const rules = parse(text).rules;
  expect(rules).toHaveLength(1);
  return rules[0];
};
const errorOf = (text: string, code = 'test'): GeoError => {
  try {
    parse(text, code);
  } catch (err) {
    expect(err).toBeInstanceOf(GeoError);
    return err as GeoError;
  }
  throw new Error('expected a GeoError');
};

describe('site source rules', () => {
  test('a bare domain is a domain rule, lower-cased', () => {
    expect(rule('Example.COM')).toMatchObject({
      type: 'domain',
      value: 'example.com',
      attrs: [],
      plain: 'domain:example.com',
    });
  });

  test('domain:, full: and keyword: prefixes (any case) give their types', () => {
    expect(rule('domain:a.example')).toMatchObject({ type: 'domain', value: 'a.example' });
    expect(rule('FULL:www.example.org')).toMatchObject({ type: 'full', value: 'www.example.org' });
    expect(rule('keyword:google')).toMatchObject({
      type: 'keyword',
      value: 'google',
      plain: 'keyword:google',
    });
  });

  test('regexp: keeps the pattern case and checks it as RE2', () => {
    expect(rule('regexp:^Ads\\d+\\.example\\.com$')).toMatchObject({
      type: 'regexp',
      value: '^Ads\\d+\\.example\\.com$',
    });
  });

  test('comments start anywhere at # and blank lines are skipped', () => {
    const parsed = parse('# header\n\n  example.com   # trailing\n\t\n#only\nfull:a.b # x\n');
    expect(parsed.rules.map((r) => r.plain)).toEqual(['domain:example.com', 'full:a.b']);
  });

  test('attributes are lower-cased, sorted and part of the canonical text', () => {
    expect(rule('example.com @CN @ads')).toMatchObject({
      attrs: ['ads', 'cn'],
      plain: 'domain:example.com:@ads,@cn',
    });
  });

  test('include: takes @must and @-ban filters', () => {
    const parsed = parse('include:google @ads @-cn');
    expect(parsed.inclusions).toEqual([
      { source: 'GOOGLE', mustAttrs: ['ads'], banAttrs: ['cn'], where: 'data/test:1' },
    ]);
  });

  test('&affiliation adds the rule to another list as well', () => {
    const parsed = parse('example.com @ads &category-ads &Other');
    expect(parsed.rules.map((r) => r.plain)).toEqual(['domain:example.com:@ads']);
    expect([...parsed.affiliations.keys()]).toEqual(['CATEGORY-ADS', 'OTHER']);
    expect(parsed.affiliations.get('OTHER')?.[0]?.plain).toBe('domain:example.com:@ads');
  });

  test('Windows line endings are accepted', () => {
    expect(parse('a.example\r\nfull:b.example\r\n').rules.map((r) => r.plain)).toEqual([
      'domain:a.example',
      'full:b.example',
    ]);
  });
});

describe('site source errors name file:line and what was wrong', () => {
  test('unknown rule type', () => {
    const err = errorOf('example.com\nregex:^a$');
    expect(err.code).toBe('source_syntax');
    expect(err.message).toBe(
      'data/test:2: unknown rule type "regex" (expected domain, full, keyword, regexp or include)',
    );
  });

  test('bad domain', () => {
    expect(errorOf('# c\nexa_mple.com').message).toBe(
      'data/test:2: invalid domain "exa_mple.com" (allowed: a-z, 0-9, "." and "-")',
    );
  });

  test('bad regexp (RE2 rejects look-ahead)', () => {
    expect(errorOf('regexp:^(?=a)b$').message).toMatch(/^data\/test:1: invalid regexp "\^\(\?=a\)b\$": /);
    expect(errorOf('\n\nregexp:a(b').message).toMatch(
      /^data\/test:3: invalid regexp "a\(b": .*missing closing \)/,
    );
  });

  test('bad attribute', () => {
    expect(errorOf('example.com @ad_s').message).toBe(
      'data/test:1: invalid attribute "@ad_s" (allowed after "@": a-z, 0-9 and "!")',
    );
    expect(errorOf('example.com @').message).toMatch(/^data\/test:1: invalid attribute "@"/);
  });

  test('stray field after a rule', () => {
    expect(errorOf('example.com extra').message).toBe(
      'data/test:1: unexpected "extra" after the rule (attributes start with "@", affiliations with "&")',
    );
  });

  test('bad include filter and affiliation on include', () => {
    expect(errorOf('include:google @-').message).toBe(
      'data/test:1: invalid attribute filter "@-" in include',
    );
    expect(errorOf('include:google &x').message).toBe(
      'data/test:1: an include line cannot carry an affiliation ("&x")',
    );
    expect(errorOf('include:').message).toBe('data/test:1: include without a list name');
  });

  test('bad list name', () => {
    expect(errorOf('example.com', 'bad_name').message).toBe(
      'data/bad_name: invalid list name "bad_name" (allowed: letters, digits, "!" and "-")',
    );
  });
});
