// Routing decisions as v2ray 4.34 makes them: a v2ray/Xray rule list parsed and checked, compiled
// over the site and IP files, and asked where a connection to a domain or an address goes.

export { formatDecision, NO_MATCH_TEXT, type RouteFormat } from './route-answer.js';
export {
  type DomainEntry,
  GEOIP_FILE,
  GEOSITE_FILE,
  type IpEntry,
  parseDomainEntry,
  parseIpEntry,
  parseRouteAddress,
  type RouteCidr,
} from './route-entries.js';
export { RouteFiles } from './route-files.js';
export { parseRouteRules, type RouteRule, type RouteRuleSet, routeRulesFrom } from './route-rules.js';
export { type RouteAssets, type RouteDecision, RouteTable } from './route-table.js';
export { V2rayCidrList } from './v2ray-cidr-list.js';
