import { describe, expect, test } from 'vitest';
import { compileSites, GeoError, type SiteList, siteRuleToText } from '../../src/geo/index.js';
import { parseSiteSource } from '../../src/geo/site/site-source.js';

function compile(files: Record<string, string>, codes?: string[]): Record<string, string[]> {
  const sources = Object.entries(files).map(([name, text]) => parseSiteSource(name, text, `data/${name}`));
  const lists: SiteList[] = compileSites(sources, { codes });
  return Object.fromEntries(lists.map((l) => [l.code, l.rules.map(siteRuleToText)]));
}

function errorOf(files: Record<string, string>): GeoError {
  try {
    compile(files);
  } catch (err) {
    expect(err).toBeInstanceOf(GeoError);
    return err as GeoError;
  }
  throw new Error('expected a GeoError');
}

describe('site compiler', () => {
  test('codes are upper case and lists sorted by code', () => {
    expect(Object.keys(compile({ zeta: 'z.example', alpha: 'a.example', 'b-!x': 'b.example' }))).toEqual([
      'ALPHA',
      'B-!X',
      'ZETA',
    ]);
  });

  test('rules are de-duplicated and sorted by canonical text', () => {
    expect(
      compile({ x: 'full:b.example\nkeyword:k\nb.example\nregexp:^z$\nB.example\nb.example @ads' }).X,
    ).toEqual(['domain:b.example', 'domain:b.example @ads', 'keyword:k', 'regexp:^z$']);
  });

  test('a subdomain is dropped under a parent domain; domain:x also covers full:x', () => {
    expect(
      compile({ x: 'example.com\nwww.example.com\nfull:example.com\nfull:a.b.example.com\nexample.org' }).X,
    ).toEqual(['domain:example.com', 'domain:example.org']);
  });

  test('an attributed subdomain is kept unless its parent has the same attributes', () => {
    expect(
      compile({
        x: 'example.com\nads.example.com @ads\nhttpdns.pro @ads\nk.httpdns.pro @ads\nfull:t.httpdns.pro @ads @cn',
      }).X,
    ).toEqual([
      'domain:ads.example.com @ads',
      'domain:example.com',
      'domain:httpdns.pro @ads',
      'full:t.httpdns.pro @ads @cn',
    ]);
  });

  test('a bare subdomain is dropped even when the parent carries attributes', () => {
    expect(compile({ x: 'google.cn @cn\nfull:scholar.google.cn' }).X).toEqual(['domain:google.cn @cn']);
  });

  test('include: pulls the resolved list in, transitively', () => {
    const out = compile({ a: 'include:b\na.example', b: 'include:c\nb.example', c: 'c.example' });
    expect(out.A).toEqual(['domain:a.example', 'domain:b.example', 'domain:c.example']);
  });

  test('include @attr keeps only rules with that attribute; @-attr drops them', () => {
    const files = {
      g: 'plain.example\nads.example @ads\ncn.example @cn\nboth.example @ads @cn',
      must: 'include:g @ads',
      ban: 'include:g @-ads',
      mix: 'include:g @ads @-cn',
    };
    const out = compile(files);
    expect(out.MUST).toEqual(['domain:ads.example @ads', 'domain:both.example @ads @cn']);
    expect(out.BAN).toEqual(['domain:cn.example @cn', 'domain:plain.example']);
    expect(out.MIX).toEqual(['domain:ads.example @ads']);
  });

  test('&affiliation adds rules to a list that may have no file of its own', () => {
    const out = compile({ a: 'a.example &shared', b: 'b.example @ads &shared' });
    expect(out.SHARED).toEqual(['domain:a.example', 'domain:b.example @ads']);
  });

  test('--codes writes only the named lists, still resolving their includes', () => {
    expect(compile({ a: 'include:b', b: 'b.example', c: 'c.example' }, ['a', 'C'])).toEqual({
      A: ['domain:b.example'],
      C: ['domain:c.example'],
    });
  });

  test('a cycle is reported with its chain and the include line', () => {
    const err = errorOf({ a: 'include:b', b: 'x.example\ninclude:c', c: 'include:a' });
    expect(err.code).toBe('source_cycle');
    expect(err.message).toBe('data/c:1: circular inclusion a -> b -> c -> a');
  });

  test('a missing include is reported with the include line', () => {
    const err = errorOf({ a: 'a.example\n# x\ninclude:nope' });
    expect(err.code).toBe('source_include');
    expect(err.message).toBe('data/a:3: included list "nope" not found');
  });

  test('a list with no rules is an error naming its file', () => {
    const err = errorOf({ a: '# nothing here\n' });
    expect(err.code).toBe('source_empty');
    expect(err.message).toBe('data/a: list "a" has no rules');
  });

  test('an unknown --codes entry is an error', () => {
    expect(() => compile({ a: 'a.example' }, ['b'])).toThrowError('list "b" not found');
  });
});
