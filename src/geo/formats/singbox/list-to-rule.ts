// Turns a branchgate list into the one sing-box rule that holds it: full -> domain, domain ->
// domain_suffix, keyword -> domain_keyword, regexp -> domain_regex (as sing-geosite maps them),
// CIDRs -> ip_cidr with inverse_match -> invert. Attributes are dropped and rules that become
// equal are written once; values sing-box would read differently are refused.
import { GeoError } from '../../errors.js';
import { DomainType, type IpList, type SiteList } from '../../model.js';
import type { RuleSetRule } from './rule-set-rule.js';

/** The rule holding a list, or undefined for an empty list (a rule-set with no rules). */
export function listToRule(list: SiteList | IpList): RuleSetRule | undefined {
  const where = `list ${list.code}`;
  if ('cidrs' in list) {
    if (list.cidrs.length === 0) {
      if (list.inverseMatch) {
        throw new GeoError(
          'export_unsupported',
          `${where}: an empty list with inverse_match (every address) has no sing-box rule`,
        );
      }
      return undefined;
    }
    list.cidrs.forEach((cidr, i) => {
      const bits = cidr.ip.length * 8;
      if ((bits !== 32 && bits !== 128) || cidr.prefix < 0 || cidr.prefix > bits) {
        throw new GeoError(
          'export_unsupported',
          `${where}: network ${i} has ${cidr.ip.length} address bytes and prefix ${cidr.prefix}`,
        );
      }
    });
    return { ...empty(where), ipCidr: list.cidrs, invert: list.inverseMatch };
  }
  if (list.rules.length === 0) return undefined;
  const groups = new Map<DomainType, Set<string>>([
    [DomainType.Full, new Set()],
    [DomainType.RootDomain, new Set()],
    [DomainType.Plain, new Set()],
    [DomainType.Regex, new Set()],
  ]);
  list.rules.forEach((rule, i) => {
    const named = rule.type === DomainType.Full || rule.type === DomainType.RootDomain;
    const bad = !named
      ? undefined
      : rule.value === ''
        ? 'is empty'
        : /[\r\n]/.test(rule.value)
          ? 'holds a line break'
          : rule.type === DomainType.RootDomain && rule.value.startsWith('.')
            ? 'starts with a dot (sing-box would match strict subdomains only)'
            : undefined;
    if (bad)
      throw new GeoError('export_unsupported', `${where}: rule ${i} (${JSON.stringify(rule.value)}) ${bad}`);
    const group = groups.get(rule.type);
    if (!group) throw new GeoError('export_unsupported', `${where}: rule ${i} has unknown type ${rule.type}`);
    group.add(rule.value);
  });
  const values = (type: DomainType) => [...(groups.get(type) ?? [])];
  return {
    ...empty(where),
    domain: values(DomainType.Full),
    domainSuffix: values(DomainType.RootDomain),
    domainKeyword: values(DomainType.Plain),
    domainRegex: values(DomainType.Regex),
  };
}

function empty(where: string): RuleSetRule {
  return {
    domain: [],
    domainSuffix: [],
    domainEnding: [],
    domainKeyword: [],
    domainRegex: [],
    ipCidr: [],
    invert: false,
    where,
  };
}
