// Builds a matcher from an opened .dat file: decodes only the lists asked for (all of them by
// default), tells site from IP files as `geo info` does, and answers a batch of queries.
//   GeoDat -> readSite / readIp (selected entries) -> SiteMatcher | IpMatcher -> codes per query
import { GeoError } from '../errors.js';
import { parseListSelector } from '../formats/list-text.js';
import { IpMatcher } from '../ip/ip-matcher.js';
import type { SiteList } from '../model.js';
import { SiteMatcher } from '../site/site-matcher.js';
import type { GeoDat } from './geo-dat.js';

/** A compiled matcher of either kind. */
export type DatMatcher =
  | { readonly kind: 'site'; readonly matcher: SiteMatcher }
  | { readonly kind: 'ip'; readonly matcher: IpMatcher };

/** The codes matching one query. */
export interface QueryMatch {
  readonly query: string;
  readonly codes: readonly string[];
}

/**
 * Compiles the lists of a file. `codes` (`cn`, `google@ads`) limits and orders them; only those
 * entries are decoded. Site files take `code@attr`; IP files refuse attributes.
 */
export function loadMatcher(dat: GeoDat, codes?: readonly string[]): DatMatcher {
  if (dat.kind === 'empty') throw new GeoError('dat_kind', `${dat.name} holds no lists`);
  if (dat.kind === 'ip') {
    if (!codes) return { kind: 'ip', matcher: IpMatcher.compile(dat.entries.map((e) => dat.readIp(e))) };
    for (const c of codes) {
      if (c.includes('@')) throw new GeoError('usage', `IP lists have no attributes ("${c}")`);
    }
    const lists = [...new Set(codes.map((c) => dat.get(c.trim())))].map((e) => dat.readIp(e));
    return { kind: 'ip', matcher: IpMatcher.compile(lists, codes) };
  }
  if (!codes) return { kind: 'site', matcher: SiteMatcher.compile(dat.entries.map((e) => dat.readSite(e))) };
  const lists: SiteList[] = [];
  for (const entry of new Set(codes.map((c) => dat.get(parseListSelector(c).code)))) {
    lists.push(dat.readSite(entry));
  }
  return { kind: 'site', matcher: SiteMatcher.compile(lists, codes) };
}

/** Matches each query (a domain, or an address for IP files); a bad address is a GeoError. */
export function matchQueries(m: DatMatcher, queries: readonly string[]): QueryMatch[] {
  return queries.map((query) => ({ query, codes: m.matcher.matchCodes(query) }));
}
