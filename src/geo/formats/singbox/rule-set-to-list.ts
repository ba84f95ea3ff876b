// Turns the rules of a sing-box rule-set into one branchgate list: domain rules into a SiteList,
// ip_cidr rules into an IpList. A rule-set's rules are OR'ed, so their items are simply joined,
// rule by rule; what an OR of lists cannot say is refused (a rule with both domain and IP items,
// invert on domain rules, invert on one of several IP rules, a rule with no condition).
import { GeoError } from '../../errors.js';
import { DomainType, type IpList, type SiteList, type SiteRule } from '../../model.js';
import type { RuleSetRule } from './rule-set-rule.js';

/** A rule-set read as a list: a site list or an IP list. */
export type RuleSetList =
  | { readonly kind: 'site'; readonly list: SiteList }
  | { readonly kind: 'ip'; readonly list: IpList };

/** Options of ruleSetToList. */
export interface RuleSetListOptions {
  /** The list's code (a rule-set does not store one). */
  readonly code: string;
  /** The file's name, for messages. */
  readonly name: string;
  /** What a rule-set with no rules is read as (default `site`). */
  readonly emptyKind?: 'site' | 'ip' | undefined;
}

/** The list a rule-set's rules make. */
export function ruleSetToList(rules: readonly RuleSetRule[], options: RuleSetListOptions): RuleSetList {
  const { name, code } = options;
  const refuse = (rule: RuleSetRule, what: string): never => {
    throw new GeoError('ruleset_unsupported', `${name}: ${rule.where} ${what}`);
  };
  let site: RuleSetRule | undefined;
  let ip: RuleSetRule | undefined;
  for (const rule of rules) {
    const hasDomain =
      rule.domain.length +
        rule.domainSuffix.length +
        rule.domainEnding.length +
        rule.domainKeyword.length +
        rule.domainRegex.length >
      0;
    const hasIp = rule.ipCidr.length > 0;
    if (hasDomain && hasIp)
      refuse(rule, 'has both domain and ip_cidr items (both must match), which one list cannot hold');
    if (!hasDomain && !hasIp) {
      throw new GeoError(
        'ruleset_corrupt',
        `${name}: ${rule.where} has no condition (sing-box refuses it too)`,
      );
    }
    if (hasDomain) {
      if (ip) refuse(rule, `is a domain rule but ${ip.where} is an ip_cidr rule; one list holds one kind`);
      site ??= rule;
    } else {
      if (site)
        refuse(rule, `is an ip_cidr rule but ${site.where} is a domain rule; one list holds one kind`);
      ip ??= rule;
    }
    if (hasDomain && rule.invert) refuse(rule, 'is inverted, which a site list cannot hold');
    if (hasIp && rule.invert && rules.length > 1) {
      refuse(rule, `is inverted and not alone (${rules.length} rules), which one IP list cannot hold`);
    }
  }
  const kind = site ? 'site' : ip ? 'ip' : (options.emptyKind ?? 'site');
  if (kind === 'ip') {
    const cidrs = rules.flatMap((rule) => rule.ipCidr);
    return { kind, list: { code, cidrs, inverseMatch: rules[0]?.invert ?? false } };
  }
  const siteRules: SiteRule[] = [];
  const add = (type: DomainType, value: string) => siteRules.push({ type, value, attributes: [] });
  for (const rule of rules) {
    for (const value of rule.domain) add(DomainType.Full, value);
    for (const value of rule.domainSuffix) add(DomainType.RootDomain, value);
    for (const value of rule.domainEnding) add(DomainType.Regex, endingRegex(value));
    for (const value of rule.domainKeyword) add(DomainType.Plain, value);
    for (const value of rule.domainRegex) add(DomainType.Regex, value);
  }
  return { kind, list: { code, rules: siteRules } };
}

/** The regexp matching every name that ends with `text` (`.example.com` -> `\.example\.com$`). */
function endingRegex(text: string): string {
  return `${text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}$`;
}
