// Text forms of decoded lists: a site rule back in domain-list-community source syntax, a CIDR as
// `addr/prefix`, and the `code@attr` selector routers use (geosite:google@ads).
import { formatCidr } from '../ip/ip-address.js';
import { DomainType, type SiteList, type SiteRule } from '../model.js';

const PREFIX: Record<number, string> = {
  [DomainType.Plain]: 'keyword',
  [DomainType.Regex]: 'regexp',
  [DomainType.RootDomain]: 'domain',
  [DomainType.Full]: 'full',
};

/** The source-syntax name of a rule type (`domain`, `full`, `keyword`, `regexp`). */
export function ruleTypeName(type: number): string {
  return PREFIX[type] ?? `type${type}`;
}

/** A rule in source syntax, e.g. `domain:google.com @ads` or `full:www.example.org`. */
export function siteRuleToText(rule: SiteRule): string {
  let text = `${ruleTypeName(rule.type)}:${rule.value}`;
  for (const attr of rule.attributes) {
    if (attr.value === true) text += ` @${attr.key}`;
    else text += ` @${attr.key}=${String(attr.value)}`;
  }
  return text;
}

/** A CIDR as text, e.g. `10.0.0.0/8` or `fc00::/7`. */
export { formatCidr as cidrToText };

/** A list selector: a code and the attributes every selected rule must carry. */
export interface ListSelector {
  readonly code: string;
  readonly attrs: readonly string[];
}

/** Parses `google` or `google@ads` (several `@` allowed) into a selector. */
export function parseListSelector(text: string): ListSelector {
  const [code = '', ...attrs] = text.split('@');
  return { code: code.trim(), attrs: attrs.map((a) => a.trim().toLowerCase()).filter((a) => a !== '') };
}

/** The rules of a site list that carry every attribute of the selector. */
export function selectRules(list: SiteList, selector: ListSelector): readonly SiteRule[] {
  if (selector.attrs.length === 0) return list.rules;
  return list.rules.filter((rule) =>
    selector.attrs.every((key) => rule.attributes.some((a) => a.key === key && a.value !== false)),
  );
}
