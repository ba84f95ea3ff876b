// A slow, literal model of v2ray 4.34's routing (AsIs) for property tests: every rule value of every
// list compared one by one with strmatcher's semantics (full ==, domain = itself or a subdomain,
// keyword = substring, regexp = RE2 search, all byte for byte), and IP lists searched with v2ray's
// own search (V2rayCidrList, checked against the real v2ray by v2ray-route.test.ts).
import { RE2JS } from 're2js';
import { DomainType, type IpList, type SiteList } from '../../../src/geo/model.js';
import {
  parseRouteAddress,
  type RouteCidr,
  type RouteRuleSet,
  V2rayCidrList,
} from '../../../src/geo/route/index.js';

/** The lists the model reads, by file name (`geosite.dat`, `geoip.dat`, ext: names). */
export interface ModelFiles {
  readonly site: ReadonlyMap<string, readonly SiteList[]>;
  readonly ip: ReadonlyMap<string, readonly IpList[]>;
}

function domainMatches(type: number, value: string, name: string): boolean {
  switch (type) {
    case DomainType.Full:
      return name === value;
    case DomainType.RootDomain:
      return name === value || name.endsWith(`.${value}`);
    case DomainType.Regex:
      return RE2JS.compile(value).test(name);
    default:
      return name.includes(value);
  }
}

function cidrsOf(list: IpList): RouteCidr[] {
  return list.cidrs.map((c) => {
    if (c.ip.length === 4)
      return {
        v6: false,
        ip:
          (((c.ip[0] as number) << 24) >>> 0) +
          ((c.ip[1] as number) << 16) +
          ((c.ip[2] as number) << 8) +
          (c.ip[3] as number),
        prefix: c.prefix,
      };
    let ip = 0n;
    for (const b of c.ip) ip = (ip << 8n) | BigInt(b);
    return { v6: true, ip, prefix: c.prefix };
  });
}

/** The outbound tag v2ray picks for a query, or null (its first outbound). */
export function modelDecide(set: RouteRuleSet, files: ModelFiles, query: string): string | null {
  const address = parseRouteAddress(query);
  for (const rule of set.rules) {
    // The domain condition: the rules of every entry, as v2ray gathers them into one group.
    const values: { type: number; value: string }[] = [];
    for (const e of rule.domain) {
      if (e.kind === 'rule') {
        values.push({ type: e.type, value: e.value });
        continue;
      }
      const list = files.site.get(e.file)?.find((l) => l.code.toUpperCase() === e.code.toUpperCase());
      if (!list) throw new Error(`model: no list ${e.code}`);
      for (const r of list.rules) {
        const keys = r.attributes.map((a) => a.key.toLowerCase());
        if (e.attrs.every((a) => keys.includes(a))) values.push({ type: r.type, value: r.value });
      }
    }
    if (values.length > 0) {
      if (address || !values.some((v) => domainMatches(v.type, v.value, query))) continue;
    }
    if (rule.ip.length > 0) {
      if (!address) continue;
      const inline = rule.ip.flatMap((e) => (e.kind === 'cidr' ? [e.cidr] : []));
      const searches: { search: V2rayCidrList; inverse: boolean }[] = [];
      for (const e of rule.ip) {
        if (e.kind !== 'list') continue;
        const list = files.ip.get(e.file)?.find((l) => l.code.toUpperCase() === e.code.toUpperCase());
        if (!list) throw new Error(`model: no list ${e.code}`);
        searches.push({ search: new V2rayCidrList(cidrsOf(list)), inverse: e.inverse });
      }
      if (inline.length > 0) searches.push({ search: new V2rayCidrList(inline), inverse: false });
      const hit = searches.some(
        ({ search, inverse }) =>
          (address.v6 ? search.match6(address.ip) : search.match4(address.ip)) !== inverse,
      );
      if (!hit) continue;
    }
    if (rule.networkTcp === false) continue;
    return rule.outboundTag;
  }
  return null;
}
