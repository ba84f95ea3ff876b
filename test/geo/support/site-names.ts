// Query names for differential matching tests, made from a list's own rules: each name itself,
// subdomains, parents, and near misses (a letter added in front, a label added behind), plus a
// few fixed names. Deterministic: rules are sampled evenly, never at random.
import { DomainType, type SiteRule } from '../../../src/geo/index.js';

const FIXED = [
  'com',
  'cn',
  'example.com',
  'www.example.com',
  'localhost',
  'a',
  'xn--fiqs8s',
  'google.com.hk',
];

/** Names probing the rules of a list; `sample` caps how many rules are probed. */
export function namesForRules(rules: readonly SiteRule[], sample = 60): string[] {
  const names = new Set(FIXED);
  const step = Math.max(1, Math.floor(rules.length / sample));
  for (let i = 0; i < rules.length; i += step) {
    const { type, value } = rules[i] as SiteRule;
    const parent = value.includes('.') ? value.slice(value.indexOf('.') + 1) : '';
    switch (type) {
      case DomainType.Full:
      case DomainType.RootDomain:
        for (const n of [
          value,
          `www.${value}`,
          `a.b.${value}`,
          `x${value}`,
          `${value}.evil`,
          parent,
          value.slice(1),
        ]) {
          if (n !== '') names.add(n);
        }
        break;
      case DomainType.Plain:
        names.add(`a${value}b.com`).add(value).add(value.slice(1));
        break;
      case DomainType.Regex: {
        // The pattern's literal characters: often a name it matches, or a near miss.
        const literal = value.replace(/\\\./g, '.').replace(/[\\^$()*+?[\]{}|]/g, '');
        if (literal !== '') names.add(literal).add(`www.${literal}`);
        break;
      }
    }
  }
  return [...names].map((n) => n.toLowerCase());
}
