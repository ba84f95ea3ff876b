// include:x @attr / @-attr takes the included list's rules as they are before its redundant
// subdomains are dropped: a unit case of the bug this fixed, and random trees (includes, attributes,
// filters) compiled by compileSites against a plain re-statement of upstream's algorithm
// (v2fly/domain-list-community main.go: roughEntries, isMatchAttrFilters, polishList), written
// here from its description, independent of src/geo.
import { describe, expect, test } from 'vitest';
import { compileSites, siteRuleToText } from '../../src/geo/index.js';
import { parseSiteSource } from '../../src/geo/site/site-source.js';
import { seededRandom } from '../../src/shared/seeded-random.js';

function compile(files: Record<string, string>): Record<string, string[]> {
  const sources = Object.entries(files).map(([name, text]) => parseSiteSource(name, text, `data/${name}`));
  return Object.fromEntries(compileSites(sources).map((l) => [l.code, l.rules.map(siteRuleToText)]));
}

// --- The re-statement -------------------------------------------------------------------------
interface Entry {
  type: 'domain' | 'full' | 'keyword';
  value: string;
  attrs: string[];
  plain: string;
}
interface Inc {
  source: string;
  must: string[];
  ban: string[];
}
interface Src {
  entries: Entry[];
  incs: Inc[];
}

function entry(type: Entry['type'], value: string, attrs: string[]): Entry {
  const sorted = [...new Set(attrs)].sort();
  const plain = `${type}:${value}${sorted.length ? `:${sorted.map((a) => `@${a}`).join(',')}` : ''}`;
  return { type, value, attrs: sorted, plain };
}

function matches(e: Entry, inc: Inc): boolean {
  if (e.attrs.length === 0) return inc.must.length === 0;
  return inc.must.every((m) => e.attrs.includes(m)) && !inc.ban.some((b) => e.attrs.includes(b));
}

function polish(rough: Map<string, Entry>): string[] {
  const final: Entry[] = [];
  const queue: Entry[] = [];
  const parents = new Set<string>();
  for (const e of rough.values()) {
    if (e.type === 'keyword') final.push(e);
    else {
      if (e.type === 'domain') {
        parents.add(e.value);
        if (e.attrs.length) parents.add(e.plain.slice(e.plain.indexOf(':') + 1));
      }
      queue.push(e);
    }
  }
  for (const e of queue) {
    let pd = e.attrs.length === 0 ? e.value : e.plain.slice(e.plain.indexOf(':') + 1);
    if (e.type === 'full') pd = `.${pd}`;
    let redundant = false;
    for (let dot = pd.indexOf('.'); dot !== -1; dot = pd.indexOf('.')) {
      pd = pd.slice(dot + 1);
      if (parents.has(pd)) {
        redundant = true;
        break;
      }
    }
    if (!redundant) final.push(e);
  }
  // Sorted by canonical text, shown in source syntax as siteRuleToText writes it.
  return final
    .sort((a, b) => (a.plain < b.plain ? -1 : a.plain > b.plain ? 1 : 0))
    .map((e) => `${e.type}:${e.value}${e.attrs.map((a) => ` @${a}`).join('')}`);
}

function upstream(lists: Map<string, Src>): Record<string, string[]> {
  const rough = new Map<string, Map<string, Entry>>();
  const resolve = (name: string): Map<string, Entry> => {
    const done = rough.get(name);
    if (done) return done;
    const src = lists.get(name) as Src;
    const map = new Map<string, Entry>();
    for (const e of src.entries) map.set(e.plain, e);
    for (const inc of src.incs) {
      const full = inc.must.length === 0 && inc.ban.length === 0;
      for (const e of resolve(inc.source).values()) if (full || matches(e, inc)) map.set(e.plain, e);
    }
    rough.set(name, map);
    return map;
  };
  const out: Record<string, string[]> = {};
  for (const name of [...lists.keys()].sort()) out[name.toUpperCase()] = polish(resolve(name));
  return out;
}

// --- Random trees -----------------------------------------------------------------------------
const NAMES = [
  'example.com',
  'a.example.com',
  'b.a.example.com',
  'c.example.com',
  'x.org',
  'y.x.org',
  'cdn.y.x.org',
];
const ATTRS = ['ads', 'cn'];

function randomTree(random: () => number): Map<string, Src> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const n = 2 + Math.floor(random() * 4);
  const names = Array.from({ length: n }, (_, i) => `list${i}`);
  const lists = new Map<string, Src>();
  for (const [i, name] of names.entries()) {
    const entries: Entry[] = [];
    const count = 1 + Math.floor(random() * 6);
    for (let k = 0; k < count; k++) {
      const type = pick(['domain', 'domain', 'full', 'keyword'] as const);
      const value = type === 'keyword' ? pick(['ads', 'track']) : pick(NAMES);
      entries.push(
        entry(
          type,
          value,
          ATTRS.filter(() => random() < 0.35),
        ),
      );
    }
    // Includes only of later lists: no cycles.
    const incs: Inc[] = [];
    for (const later of names.slice(i + 1)) {
      if (random() < 0.5) continue;
      const r = random();
      const attr = pick(ATTRS);
      incs.push({ source: later, must: r < 0.33 ? [attr] : [], ban: r >= 0.33 && r < 0.66 ? [attr] : [] });
    }
    lists.set(name, { entries, incs });
  }
  return lists;
}

function toFiles(lists: Map<string, Src>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, src] of lists) {
    const lines = src.entries.map((e) => `${e.type}:${e.value}${e.attrs.map((a) => ` @${a}`).join('')}`);
    for (const inc of src.incs)
      lines.push(
        `include:${inc.source}${inc.must.map((a) => ` @${a}`).join('')}${inc.ban.map((a) => ` @-${a}`).join('')}`,
      );
    files[name] = `${lines.join('\n')}\n`;
  }
  return files;
}

describe('include with an attribute filter', () => {
  test('keeps a rule the included list dropped only because of a parent the filter leaves out', () => {
    const out = compile({
      base: 'domain:example.com @ads\nfull:www.example.com\ndomain:cdn.example.com\n',
      clean: 'include:base @-ads\n',
    });
    // In base, www/cdn are redundant under domain:example.com @ads? No: a rule without attributes
    // is redundant under any domain: parent, so base drops them.
    expect(out.BASE).toEqual(['domain:example.com @ads']);
    // clean filters the @ads parent out: the subdomains must stay, or clean stops matching them.
    expect(out.CLEAN).toEqual(['domain:cdn.example.com', 'full:www.example.com']);
  });

  test('500 random trees compile exactly as the re-statement of upstream builds them', () => {
    const random = seededRandom(20261125);
    let filtered = 0;
    for (let i = 0; i < 500; i++) {
      const lists = randomTree(random);
      filtered += [...lists.values()].reduce(
        (n, s) => n + s.incs.filter((x) => x.must.length + x.ban.length > 0).length,
        0,
      );
      const files = toFiles(lists);
      let ours: Record<string, string[]>;
      try {
        ours = compile(files);
      } catch (err) {
        throw new Error(`tree ${i} failed: ${String(err)}\n${JSON.stringify(files, null, 1)}`);
      }
      expect(ours, JSON.stringify(files, null, 1)).toEqual(upstream(lists));
    }
    expect(filtered).toBeGreaterThan(200);
  });
});
