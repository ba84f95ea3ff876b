// Writes a site list as dnsmasq lines: `ipset=/domain/NAMES`, `nftset=/domain/SPEC` and/or
// `server=/domain/ADDR` for each domain and full rule (dnsmasq matches a name and all its
// subdomains); keyword and regexp rules have no dnsmasq form and are left out.
import { DomainType, type SiteList } from '../../model.js';

/** Which dnsmasq lines to write per domain (none given: `ipset=/domain/<code in lower case>`). */
export interface DnsmasqOptions {
  /** Set name(s), comma-separated, for `ipset=/domain/NAME`. */
  readonly ipset?: string | undefined;
  /** nftset spec, e.g. `4#inet#fw#proxy4,6#inet#fw#proxy6`, for `nftset=/domain/SPEC`. */
  readonly nftset?: string | undefined;
  /** Upstream DNS server for `server=/domain/ADDR`. */
  readonly server?: string | undefined;
}

/** The dnsmasq text of a site list (domain and full rules only). */
export function writeDnsmasq(list: SiteList, options: DnsmasqOptions = {}): string {
  const targets: { key: string; value: string }[] = [];
  if (options.ipset) targets.push({ key: 'ipset', value: options.ipset });
  if (options.nftset) targets.push({ key: 'nftset', value: options.nftset });
  if (options.server) targets.push({ key: 'server', value: options.server });
  if (targets.length === 0) targets.push({ key: 'ipset', value: list.code.toLowerCase() });
  let out = '';
  for (const rule of list.rules) {
    if (rule.type !== DomainType.RootDomain && rule.type !== DomainType.Full) continue;
    for (const t of targets) out += `${t.key}=/${rule.value}/${t.value}\n`;
  }
  return out;
}
