// POST /api/geo/route's work: a rule list compiled over the files the geo service has loaded (read
// again from their paths; no ext: files), then v2ray's decision for each query. The last compiled
// table is kept for the same rules and the same loaded files, so a client asking again in batches
// does not pay for loading the lists each time.
import { GeoError } from '../errors.js';
import { RouteFiles } from '../route/route-files.js';
import { routeRulesFrom } from '../route/route-rules.js';
import { type RouteDecision, RouteTable } from '../route/route-table.js';
import type { GeoLookup } from './geo-lookup.js';

/** The answer of POST /api/geo/route. */
export interface RouteAnswer {
  readonly results: readonly RouteDecision[];
  /** What the rules do that a user may not expect (never-matching rules, Xray-only syntax). */
  readonly warnings: readonly string[];
  /** The tag of the config's first outbound (used when no rule matches); null when the rules came without outbounds. */
  readonly firstOutbound: string | null;
}

/** The most rules one route request may carry. */
export const MAX_ROUTE_RULES = 1000;

let last: { lookup: GeoLookup; key: string; table: RouteTable } | undefined;

/** Compiles `rules` (as a request gave them) over the lookup's files and decides every query. */
export function routeDecisions(lookup: GeoLookup, rules: unknown, queries: readonly string[]): RouteAnswer {
  const key = JSON.stringify(rules);
  let table = last?.lookup === lookup && last.key === key ? last.table : undefined;
  if (!table) {
    const files = new RouteFiles({
      site: lookup.files.find((f) => f.kind === 'site')?.path,
      ip: lookup.files.find((f) => f.kind === 'ip')?.path,
      ext: false,
    });
    try {
      const set = routeRulesFrom(rules, 'request');
      if (set.rules.length > MAX_ROUTE_RULES) {
        throw new GeoError(
          'route_rule',
          `request: ${set.rules.length} rules; at most ${MAX_ROUTE_RULES} a request`,
        );
      }
      table = RouteTable.compile(set, files);
    } finally {
      files.close();
    }
    last = { lookup, key, table };
  }
  const decided = table;
  return {
    results: queries.map((q) => decided.decide(q)),
    warnings: decided.warnings,
    firstOutbound: decided.firstOutbound ?? null,
  };
}
