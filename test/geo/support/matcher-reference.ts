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
import { bytesToBigint } from '../../../src/geo/ip-address.js';

const re2Cache = new Map<string, RE2JS>();

function re2(pattern: string): RE2JS {
  let re = re2Cache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    re2Cache.set(pattern, re);
  }
  return re;
}

/** Whether one rule matches a domain (one trailing dot dropped, lower-cased first). */
export function ruleMatches(rule: SiteRule, domain: string): boolean {
  const name = (domain.endsWith('.') ? domain.slice(0, -1) : domain).toLowerCase();
  const value = rule.type === DomainType.Regex ? rule.value : rule.value.toLowerCase();
  switch (rule.type) {
    case DomainType.Full:
      return name === value;
    case DomainType.RootDomain:
      return name === value || name.endsWith(`.${value}`);
    case DomainType.Plain:
      return name.includes(value);
    case DomainType.Regex:
      return re2(value).test(name);
    default:
      throw new Error(`rule type ${rule.type}`);
  }
}

/** The selectors (or every list code) with a rule matching the domain, in selector order. */
export function referenceSiteMatch(
  lists: readonly SiteList[],
  domain: string,
  selectors?: string[],
): string[] {
  const chosen = selectors ?? lists.map((l) => l.code);
  const out: string[] = [];
  for (const text of chosen) {
    const sel = parseListSelector(text);
    const list = lists.find((l) => l.code.toUpperCase() === sel.code.toUpperCase());
    if (!list) throw new Error(`no list ${sel.code}`);
    const label = [list.code.toUpperCase(), ...sel.attrs].join('@');
    if (out.includes(label)) continue;
    const hit = list.rules.some(
      (rule) =>
        sel.attrs.every((key) => rule.attributes.some((a) => a.key === key && a.value !== false)) &&
        ruleMatches(rule, domain),
    );
    if (hit) out.push(label);
  }
  return out;
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

/** The codes of the lists matching an address (4 or 16 bytes), in list order. */
export function referenceIpMatch(lists: readonly IpList[], address: Uint8Array): string[] {
  const a = referenceAddress(address);
  const bits = a.v6 ? 128n : 32n;
  const out: string[] = [];
  for (const list of lists) {
    const inside = list.cidrs.some((c) => {
      if ((c.ip.length === 16) !== a.v6) return false;
      const host = bits - BigInt(c.prefix);
      return a.value >> host === bytesToBigint(c.ip) >> host;
    });
    if (inside !== list.inverseMatch) out.push(list.code.toUpperCase());
  }
  return out;
}
