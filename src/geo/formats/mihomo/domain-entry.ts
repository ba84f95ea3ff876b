// One entry of a mihomo `domain` provider and its site rule: `x` <-> full, `+.x` <-> domain, `.x`
// (subdomains only) <-> regexp `^.+\.x$`. Wildcards (`*`) and characters that would change how
// mihomo's set matches are refused.
import { DomainType, type SiteRule } from '../../model.js';

/** How an entry matches: the name only, the name and its subdomains, or its subdomains only. */
export type EntryForm = 'exact' | 'tree' | 'sub';

/** A parsed entry: a lower-case domain and its form. */
export interface DomainEntry {
  readonly domain: string;
  readonly form: EntryForm;
}

/** Longest domain accepted, in UTF-8 bytes (keeps every stored key within 512 bytes). */
const MAX_DOMAIN_BYTES = 510;
const utf8 = new TextEncoder();

/**
 * Why a lower-case domain cannot be an entry, or undefined when it can: labels must be non-empty
 * and hold only a-z 0-9 - _ or non-ASCII letters; `*` and `+` would act as wildcards in mihomo.
 */
export function domainProblem(domain: string): string | undefined {
  if (domain === '') return 'empty domain';
  for (const ch of domain) {
    const c = ch.codePointAt(0) as number;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46) continue;
    if (ch === '*') return 'wildcard "*" is not supported';
    if (ch === '+') return '"+" is only allowed as the "+." prefix';
    if (c >= 128 && !/\s/u.test(ch)) continue;
    return `character ${JSON.stringify(ch)} is not allowed in a domain`;
  }
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return 'empty label';
  if (domain.length * 3 > MAX_DOMAIN_BYTES && utf8.encode(domain).length > MAX_DOMAIN_BYTES) {
    return `longer than ${MAX_DOMAIN_BYTES} bytes`;
  }
  return undefined;
}

/** Parses an entry as written in a text or YAML provider (lower-cased first, as mihomo does). */
export function parseDomainEntry(text: string): DomainEntry | { readonly problem: string } {
  const lower = text.toLowerCase();
  let form: EntryForm = 'exact';
  let domain = lower;
  if (lower.startsWith('+.')) {
    form = 'tree';
    domain = lower.slice(2);
  } else if (lower.startsWith('.')) {
    form = 'sub';
    domain = lower.slice(1);
  }
  const problem = domainProblem(domain);
  return problem === undefined ? { domain, form } : { problem };
}

/** The entry text of a parsed entry. */
export function entryText(entry: DomainEntry): string {
  return entry.form === 'tree'
    ? `+.${entry.domain}`
    : entry.form === 'sub'
      ? `.${entry.domain}`
      : entry.domain;
}

/** The regexp rule value that matches exactly the subdomains of a domain. */
export function subdomainPattern(domain: string): string {
  return `^.+\\.${domain.replaceAll('.', '\\.')}$`;
}

const SUBDOMAIN_PATTERN = /^\^\.\+\\\.((?:[^\\.]|\\\.)+)\$$/;

/** The site rule an entry stands for. */
export function entryRule(entry: DomainEntry): SiteRule {
  if (entry.form === 'exact') return { type: DomainType.Full, value: entry.domain, attributes: [] };
  if (entry.form === 'tree') return { type: DomainType.RootDomain, value: entry.domain, attributes: [] };
  return { type: DomainType.Regex, value: subdomainPattern(entry.domain), attributes: [] };
}

/**
 * The entry a site rule becomes: full and domain rules always (values lower-cased), a regexp rule
 * only in the exact shape subdomainPattern writes; other regexps and keywords are `dropped`.
 */
export function ruleEntry(
  rule: SiteRule,
): DomainEntry | { readonly dropped: 'keyword' | 'regexp' } | { readonly problem: string } {
  let domain: string;
  let form: EntryForm;
  if (rule.type === DomainType.Full || rule.type === DomainType.RootDomain) {
    domain = rule.value.toLowerCase();
    form = rule.type === DomainType.Full ? 'exact' : 'tree';
  } else if (rule.type === DomainType.Regex) {
    const m = SUBDOMAIN_PATTERN.exec(rule.value);
    if (!m) return { dropped: 'regexp' };
    domain = (m[1] as string).replaceAll('\\.', '.');
    if (domainProblem(domain) !== undefined) return { dropped: 'regexp' };
    form = 'sub';
  } else {
    return { dropped: 'keyword' };
  }
  const problem = domainProblem(domain);
  return problem === undefined ? { domain, form } : { problem };
}
