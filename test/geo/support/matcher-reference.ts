// Reference matchers for differential tests: the rule semantics written as plainly as possible,
// a linear scan over every rule (re2js for every regexp, bigint masks for every CIDR).
import { RE2JS } from 're2js';
import {
  DomainType,
  type IpList,
  parseListSelector,
  type SiteList,
  type SiteRule,
} from '../../../src/geo/index.js';
import { bytesToBigint } from '../../../src/geo/ip/ip-address.js';

const re2Cache = new Map<string, RE2JS>();

function re2(pattern: string): RE2JS {
  let re = re2Cache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    re2Cache.set(pattern, re);
  }
  return re;
}

/** Whether one rule matches a name already lower-cased with one trailing dot dropped. */
export function ruleMatches(rule: SiteRule, name: string): boolean {
  return preparedMatches(prepare(rule), name);
}

interface PreparedRule {
  readonly type: DomainType;
  readonly value: string;
  readonly dotted: string;
  readonly re: RE2JS | undefined;
}

function prepare(rule: SiteRule): PreparedRule {
  const value = rule.type === DomainType.Regex ? rule.value : rule.value.toLowerCase();
  return {
    type: rule.type,
    value,
    dotted: `.${value}`,
    re: rule.type === DomainType.Regex ? re2(value) : undefined,
  };
}

function preparedMatches(rule: PreparedRule, name: string): boolean {
  switch (rule.type) {
    case DomainType.Full:
      return name === rule.value;
    case DomainType.RootDomain:
      return name === rule.value || name.endsWith(rule.dotted);
    case DomainType.Plain:
      return name.includes(rule.value);
    case DomainType.Regex:
      return (rule.re as RE2JS).test(name);
    default:
      throw new Error(`rule type ${rule.type}`);
  }
}

/**
 * A reference site matcher: for each selector (default: every list code) the rules carrying its
 * attributes, scanned in full for each domain.
 */
export function siteReference(
  lists: readonly SiteList[],
  selectors?: readonly string[],
): (domain: string) => string[] {
  const chosen = selectors ?? lists.map((l) => l.code);
  const targets: { label: string; rules: PreparedRule[] }[] = [];
  for (const text of chosen) {
    const sel = parseListSelector(text);
    const list = lists.find((l) => l.code.toUpperCase() === sel.code.toUpperCase());
    if (!list) throw new Error(`no list ${sel.code}`);
    const label = [list.code.toUpperCase(), ...sel.attrs].join('@');
    if (targets.some((t) => t.label === label)) continue;
    const rules = list.rules
      .filter((rule) =>
        sel.attrs.every((key) => rule.attributes.some((a) => a.key === key && a.value !== false)),
      )
      .map(prepare);
    targets.push({ label, rules });
  }
  return (domain) => {
    const name = (domain.endsWith('.') ? domain.slice(0, -1) : domain).toLowerCase();
    return targets.filter((t) => t.rules.some((rule) => preparedMatches(rule, name))).map((t) => t.label);
  };
}

/** The selectors (or every list code) with a rule matching the domain, in selector order. */
export function referenceSiteMatch(
  lists: readonly SiteList[],
  domain: string,
  selectors?: string[],
): string[] {
  return siteReference(lists, selectors)(domain);
}

/** An address as family and 128-bit/32-bit value; IPv4-mapped IPv6 becomes IPv4. */
export function referenceAddress(bytes: Uint8Array): { v6: boolean; value: bigint } {
  if (bytes.length === 16) {
    const v = bytesToBigint(bytes);
    if (v >> 32n === 0xffffn) return { v6: false, value: v & 0xffffffffn };
    return { v6: true, value: v };
  }
  return { v6: false, value: bytesToBigint(bytes) };
}

/**
 * A reference IP matcher: every CIDR of every list as a [first, last] bigint pair, scanned in
 * full for each address.
 */
export function ipReference(lists: readonly IpList[]): (address: Uint8Array) => string[] {
  const prepared = lists.map((list) => ({
    code: list.code.toUpperCase(),
    inverse: list.inverseMatch,
    ranges: list.cidrs.map((c) => {
      const host = BigInt(c.ip.length * 8 - c.prefix);
      const first = bytesToBigint(c.ip);
      return { v6: c.ip.length === 16, first, last: first + (1n << host) - 1n };
    }),
  }));
  return (address) => {
    const a = referenceAddress(address);
    const out: string[] = [];
    for (const list of prepared) {
      const inside = list.ranges.some((r) => r.v6 === a.v6 && r.first <= a.value && a.value <= r.last);
      if (inside !== list.inverse) out.push(list.code);
    }
    return out;
  };
}

/** The codes of the lists matching an address (4 or 16 bytes), in list order. */
export function referenceIpMatch(lists: readonly IpList[], address: Uint8Array): string[] {
  return ipReference(lists)(address);
}
