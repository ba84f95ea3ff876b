// A rule list compiled over the site and IP files, answering what v2ray 4.34 routes a connection
// to (domainStrategy AsIs): the first rule whose conditions all hold. A domain query has no
// address and an address query no domain, so a rule with both a domain and an IP condition never
// matches, a rule with only one kind matches only queries of that kind.
//   RouteRuleSet + RouteAssets -> DomainConditions / IpConditions (each list loaded once)
//   -> decide(query): one SiteMatcher or IpMatcher lookup, then the rules in order
import type { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { DomainType } from '../model.js';
import { DomainConditions } from './domain-conditions.js';
import { IpConditions, type RouteAddress } from './ip-conditions.js';
import { parseRouteAddress, type RouteCidr } from './route-entries.js';
import type { RouteRule, RouteRuleSet } from './route-rules.js';

/** Opens the files rules name: `geosite.dat`, `geoip.dat` or an `ext:` file name. */
export interface RouteAssets {
  /** The opened file (the caller closes it); a GeoError when it cannot be had. */
  open(file: string, kind: 'site' | 'ip'): GeoDat;
}

/** What v2ray does with one query. */
export interface RouteDecision {
  readonly query: string;
  /** Whether v2ray reads the query as a domain or an address. */
  readonly kind: 'domain' | 'ip';
  /** The outbound of the first matching rule; null: no rule matched (v2ray uses its first outbound). */
  readonly outboundTag: string | null;
  /** That rule's index in the list, from 0; null when none matched. */
  readonly rule: number | null;
}

interface CompiledRule {
  readonly index: number;
  readonly outboundTag: string;
  /** Domain items (any may hold), or undefined: no domain condition. */
  readonly domain: Int32Array | undefined;
  readonly ip: { readonly lists: Int32Array; readonly inverse: Uint8Array } | undefined;
  readonly networkTcp: boolean | undefined;
}

/** A compiled rule list. */
export class RouteTable {
  private constructor(
    private readonly rules: readonly CompiledRule[],
    private readonly domains: DomainConditions,
    private readonly ips: IpConditions,
    /** What the rules do that a user may not expect (never-matching rules, Xray-only syntax). */
    readonly warnings: readonly string[],
    /** The tag of the config's first outbound (used when no rule matches), when the rules came with outbounds. */
    readonly firstOutbound: string | undefined,
  ) {}

  /** Number of rules. */
  get size(): number {
    return this.rules.length;
  }

  /** Loads every list the rules name and compiles the conditions; GeoErrors name the rule and entry. */
  static compile(set: RouteRuleSet, assets: RouteAssets): RouteTable {
    const domains = new DomainConditions();
    const ips = new IpConditions();
    const warnings = [...set.warnings];
    const siteItems = new Map<string, number>();
    const compiled = set.rules.map((rule) => compileRule(rule, assets, domains, ips, siteItems, warnings));
    domains.build();
    ips.build();
    const rules: CompiledRule[] = [];
    for (const [k, c] of compiled.entries()) {
      const rule = set.rules[k] as RouteRule;
      // v2ray drops a domain condition whose lists hold no rule (geosite:x@attr selecting none).
      const domainItems = c.domain && [...c.domain].some((d) => domains.count(d) > 0) ? c.domain : undefined;
      if (!domainItems && !c.ip && c.networkTcp === undefined) {
        throw new GeoError(
          'route_rule',
          `${c.where}: no condition is left (its lists hold no rule): v2ray refuses it ("this rule has no effective fields")`,
        );
      }
      if (domainItems && c.ip) {
        warnings.push(`${c.where}: has both domain and ip conditions, so it never matches under AsIs`);
      }
      if (c.networkTcp === false)
        warnings.push(`${c.where}: its network leaves out tcp, so it never matches a TCP connection`);
      if (rule.ip.some((e) => e.kind === 'list' && e.inverse)) {
        warnings.push(
          `${c.where}: "geoip:!CODE" is read as Xray reads it (every address outside CODE); v2ray 4.34 refuses it`,
        );
      }
      const tags = set.outboundTags;
      if (tags && tags.length > 0 && !tags.includes(rule.outboundTag)) {
        warnings.push(
          `${c.where}: outboundTag "${rule.outboundTag}" names no outbound: v2ray sends what it matches to its first outbound ("${tags[0]}")`,
        );
      }
      rules.push({
        index: rule.index,
        outboundTag: rule.outboundTag,
        domain: domainItems,
        ip: c.ip,
        networkTcp: c.networkTcp,
      });
    }
    return new RouteTable(rules, domains, ips, warnings, set.outboundTags?.[0]);
  }

  /**
   * The outbound v2ray picks for a connection to `query`: an address (IPv4, IPv6, `[v6]`) or a
   * domain, taken as given. The conditions of the first rule that holds; null when none does.
   */
  decide(query: string): RouteDecision {
    if (query === '') throw new GeoError('usage', 'empty query');
    const address: RouteAddress | undefined = parseRouteAddress(query);
    if (address) this.ips.prepare(address);
    else this.domains.prepare(query);
    for (const rule of this.rules) {
      if (rule.networkTcp === false) continue;
      if (rule.domain && (address || !rule.domain.some((d) => this.domains.holds(d)))) continue;
      if (rule.ip && (!address || !this.ipHolds(rule.ip))) continue;
      return { query, kind: address ? 'ip' : 'domain', outboundTag: rule.outboundTag, rule: rule.index };
    }
    return { query, kind: address ? 'ip' : 'domain', outboundTag: null, rule: null };
  }

  private ipHolds(ip: NonNullable<CompiledRule['ip']>): boolean {
    for (let k = 0; k < ip.lists.length; k++) {
      if (this.ips.holds(ip.lists[k] as number) !== (ip.inverse[k] === 1)) return true;
    }
    return false;
  }
}

/** A rule's conditions before the matchers are built. */
interface RuleParts {
  readonly where: string;
  readonly domain: Int32Array | undefined;
  readonly ip: { readonly lists: Int32Array; readonly inverse: Uint8Array } | undefined;
  readonly networkTcp: boolean | undefined;
}

/** Opens a file a rule names; a failure says which rule and entry named it. */
function openAt(assets: RouteAssets, file: string, kind: 'site' | 'ip', at: string): GeoDat {
  try {
    return assets.open(file, kind);
  } catch (err) {
    if (err instanceof GeoError) throw new GeoError(err.code, `${at}: ${err.message}`);
    throw err;
  }
}

function compileRule(
  rule: RouteRule,
  assets: RouteAssets,
  domains: DomainConditions,
  ips: IpConditions,
  siteItems: Map<string, number>,
  warnings: string[],
): RuleParts {
  const where = rule.where;
  const domainItems: number[] = [];
  const inline: { type: DomainType; value: string; where: string }[] = [];
  rule.domain.forEach((entry, k) => {
    const at = `${where}.domain "${rule.domainText[k]}"`;
    if (entry.kind === 'rule') {
      inline.push({ type: entry.type, value: entry.value, where: at });
      if (entry.type === DomainType.Plain && entry.value.includes(':')) {
        warnings.push(`${at}: no prefix v2ray knows (they are case-sensitive), so it is a substring match`);
      }
      return;
    }
    const key = `${entry.file}\0${entry.code.toUpperCase()}\0${[...entry.attrs].sort().join('@')}`;
    let item = siteItems.get(key);
    if (item === undefined) {
      item = domains.addList(openAt(assets, entry.file, 'site', at), entry.code, entry.attrs, at);
      siteItems.set(key, item);
    }
    domainItems.push(item);
  });
  if (inline.length > 0) domainItems.push(domains.addInline(inline));
  const lists: number[] = [];
  const inverse: number[] = [];
  const cidrs: RouteCidr[] = [];
  rule.ip.forEach((entry, k) => {
    const at = `${where}.ip "${rule.ipText[k]}"`;
    if (entry.kind === 'cidr') {
      cidrs.push(entry.cidr);
      return;
    }
    lists.push(ips.addList(entry.key, () => openAt(assets, entry.file, 'ip', at), entry.code, at));
    inverse.push(entry.inverse ? 1 : 0);
  });
  // v2ray gathers a rule's networks into one list of their own.
  if (cidrs.length > 0) {
    lists.push(ips.addCidrs(cidrs));
    inverse.push(0);
  }
  return {
    where,
    domain: rule.domain.length > 0 ? Int32Array.from(domainItems) : undefined,
    ip: lists.length > 0 ? { lists: Int32Array.from(lists), inverse: Uint8Array.from(inverse) } : undefined,
    networkTcp: rule.networkTcp,
  };
}
