// Between provider entries and the keys of mihomo's domain set, as mihomo's DomainTrie stores
// them: `x` -> key `x`; `+.x` -> keys `x` and `+.x`; `.x` -> key `+.x` (in the set a `+.x` key
// matches the subdomains of x only). Read back, `x` with `+.x` is one domain rule.
import type { SiteRule } from '../../model.js';
import { type DomainEntry, domainProblem, entryRule } from './domain-entry.js';

/** The domain set keys that hold these entries. */
export function entryKeys(entries: readonly DomainEntry[]): Set<string> {
  const keys = new Set<string>();
  for (const e of entries) {
    if (e.form !== 'sub') keys.add(e.domain);
    if (e.form !== 'exact') keys.add(`+.${e.domain}`);
  }
  return keys;
}

/**
 * The entries a set of keys holds, one per domain, in the order of the keys; a key that is no
 * domain (wildcards, upper case, bad characters) is reported through `fail`.
 */
export function keyEntries(keys: readonly string[], fail: (what: string) => never): DomainEntry[] {
  const forms = new Map<string, { exact: boolean; sub: boolean }>();
  for (const key of keys) {
    const sub = key.startsWith('+.');
    const domain = sub ? key.slice(2) : key;
    const problem = domainProblem(domain);
    if (problem !== undefined) fail(`key ${JSON.stringify(key)}: ${problem}`);
    const seen = forms.get(domain) ?? { exact: false, sub: false };
    if (sub) seen.sub = true;
    else seen.exact = true;
    forms.set(domain, seen);
  }
  const out: DomainEntry[] = [];
  for (const [domain, f] of forms) out.push({ domain, form: f.exact ? (f.sub ? 'tree' : 'exact') : 'sub' });
  return out;
}

/** The rules a set of keys holds (see keyEntries). */
export function keyRules(keys: readonly string[], fail: (what: string) => never): SiteRule[] {
  return keyEntries(keys, fail).map(entryRule);
}
