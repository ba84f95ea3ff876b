// Converts one list to what other tools load: plain text (source syntax or CIDRs), dnsmasq
// `ipset=`/`nftset=`/`server=` lines or AdGuard Home filtering rules for a site list, or an
// nftables set file for an IP list. Rules a target cannot express (keyword, regexp for dnsmasq)
// are skipped and counted.

import type { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { DomainType, type SiteRule } from '../model.js';
import { cidrToText, parseListSelector, selectRules, siteRuleToText } from './list-text.js';

/** Export formats. */
export type ExportFormat = 'text' | 'dnsmasq' | 'nftables' | 'adguard';

/** Options of exportList. */
export interface ExportOptions {
  /** `code` or `code@attr`. */
  readonly code: string;
  readonly to: ExportFormat;
  /** dnsmasq: ipset name(s), comma-separated, for `ipset=/domain/NAME`. */
  readonly ipset?: string | undefined;
  /** dnsmasq: nftset spec, e.g. `4#inet#fw#proxy4,6#inet#fw#proxy6`, for `nftset=/domain/SPEC`. */
  readonly nftset?: string | undefined;
  /** dnsmasq: upstream DNS server for `server=/domain/ADDR`. */
  readonly server?: string | undefined;
  /** nftables: table as `family name` (default `inet branchgate`). */
  readonly table?: string | undefined;
  /** nftables: set name base (default: the code, lower case); sets are NAME4 and NAME6. */
  readonly set?: string | undefined;
}

/** The exported text and how many rules could not be expressed. */
export interface ExportResult {
  readonly text: string;
  readonly written: number;
  readonly skipped: number;
}

/** Exports one list of an opened .dat file. */
export function exportList(dat: GeoDat, options: ExportOptions): ExportResult {
  const selector = parseListSelector(options.code);
  const entry = dat.get(selector.code);
  if (dat.kind === 'ip') {
    if (selector.attrs.length > 0) throw new GeoError('usage', 'IP lists have no attributes');
    const list = dat.readIp(entry);
    if (options.to === 'text') {
      const lines = list.cidrs.map((c) => cidrToText(c.ip, c.prefix));
      return { text: joinLines(lines), written: lines.length, skipped: 0 };
    }
    if (options.to === 'nftables') return toNftables(list.code, list.cidrs, options);
    throw new GeoError(
      'export_unsupported',
      `${options.to} export needs a site list; ${dat.name} holds IP lists`,
    );
  }
  const list = dat.readSite(entry);
  const rules = selectRules(list, selector);
  if (options.to === 'text') {
    const lines = rules.map(siteRuleToText);
    return { text: joinLines(lines), written: lines.length, skipped: 0 };
  }
  if (options.to === 'adguard') return toAdGuard(list.code, rules);
  if (options.to === 'nftables') {
    throw new GeoError(
      'export_unsupported',
      `nftables export needs an IP list; ${dat.name} holds site lists`,
    );
  }
  const targets = dnsmasqTargets(options, list.code);
  const lines: string[] = [];
  let skipped = 0;
  for (const rule of rules) {
    // dnsmasq matches a domain and all its subdomains; keyword and regexp rules have no equivalent.
    if (rule.type !== DomainType.RootDomain && rule.type !== DomainType.Full) {
      skipped++;
      continue;
    }
    for (const t of targets) lines.push(`${t.key}=/${rule.value}/${t.value}`);
  }
  return { text: joinLines(lines), written: rules.length - skipped, skipped };
}

/**
 * AdGuard Home's DNS filtering syntax (its urlfilter library): `||name^` a domain and its
 * subdomains, `|name^` the name alone, `*keyword*` a substring (a bare word would be read as a
 * hosts-style name), `/regexp/` a regexp (Go's RE2, as v2ray's, but AdGuard matches it without
 * regard to case). A keyword under 3 characters makes a rule AdGuard refuses as too wide, and a
 * regexp with `replace=` would be read as a modifier: those are skipped.
 */
function toAdGuard(code: string, rules: readonly SiteRule[]): ExportResult {
  const lines = [`! ${code}: written by branchgate geo export --format adguard`];
  let skipped = 0;
  for (const rule of rules) {
    if (rule.type === DomainType.RootDomain) lines.push(`||${rule.value}^`);
    else if (rule.type === DomainType.Full) lines.push(`|${rule.value}^`);
    else if (rule.type === DomainType.Plain && rule.value.length >= 3 && !/[*|^$]/.test(rule.value))
      lines.push(`*${rule.value}*`);
    else if (rule.type === DomainType.Regex && !rule.value.includes('replace='))
      lines.push(`/${rule.value}/`);
    else skipped++;
  }
  return { text: joinLines(lines), written: rules.length - skipped, skipped };
}

function dnsmasqTargets(options: ExportOptions, code: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  if (options.ipset) out.push({ key: 'ipset', value: options.ipset });
  if (options.nftset) out.push({ key: 'nftset', value: options.nftset });
  if (options.server) out.push({ key: 'server', value: options.server });
  if (out.length === 0) out.push({ key: 'ipset', value: code.toLowerCase() });
  return out;
}

function toNftables(
  code: string,
  cidrs: readonly { ip: Uint8Array; prefix: number }[],
  options: ExportOptions,
): ExportResult {
  const table = options.table ?? 'inet branchgate';
  if (!/^(ip|ip6|inet|arp|bridge|netdev) [A-Za-z0-9_-]+$/.test(table)) {
    throw new GeoError(
      'export_unsupported',
      `--table must be "<family> <name>", e.g. "inet branchgate" (got "${table}")`,
    );
  }
  const base = options.set ?? code.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(base))
    throw new GeoError('export_unsupported', `invalid nftables set name "${base}"`);
  const v4 = cidrs.filter((c) => c.ip.length === 4).map((c) => cidrToText(c.ip, c.prefix));
  const v6 = cidrs.filter((c) => c.ip.length === 16).map((c) => cidrToText(c.ip, c.prefix));
  const set = (name: string, type: string, elements: string[]): string[] => {
    const lines = [`\tset ${name} {`, `\t\ttype ${type}`, '\t\tflags interval'];
    if (elements.length > 0) {
      lines.push('\t\telements = {');
      for (let i = 0; i < elements.length; i++) {
        lines.push(`\t\t\t${elements[i]}${i < elements.length - 1 ? ',' : ''}`);
      }
      lines.push('\t\t}');
    }
    lines.push('\t}');
    return lines;
  };
  const lines = [
    `# ${code}: ${v4.length} IPv4 and ${v6.length} IPv6 networks; load with: nft -f FILE`,
    `table ${table} {`,
    ...set(`${base}4`, 'ipv4_addr', v4),
    ...set(`${base}6`, 'ipv6_addr', v6),
    '}',
  ];
  return { text: joinLines(lines), written: cidrs.length, skipped: 0 };
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
