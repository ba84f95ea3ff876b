// Parses and checks a routing rule list the way v2ray 4.34 loads its config (infra/conf/router.go):
// {"rules":[...]}, a bare [...] or a whole config with "routing":{"rules":[...]} (and the old
// "routing":{"settings":{"rules":[...]}}, appended after them). Keys match case-insensitively as
// Go's encoding/json matches them. Everything refused says which rule and which field.
import { GeoError } from '../errors.js';
import {
  type DomainEntry,
  EntryError,
  type IpEntry,
  parseDomainEntry,
  parseIpEntry,
} from './route-entries.js';

/** One field rule: its conditions, all of which must hold (each is an OR of its entries). */
export interface RouteRule {
  /** Its position in the rule list, from 0. */
  readonly index: number;
  /** Where it is, for messages: `rules.json: routing.rules[2]`. */
  readonly where: string;
  readonly outboundTag: string;
  /** "domain" then "domains" entries; none: no domain condition. */
  readonly domain: readonly DomainEntry[];
  /** The entries' text, for messages. */
  readonly domainText: readonly string[];
  /** None: no IP condition. */
  readonly ip: readonly IpEntry[];
  readonly ipText: readonly string[];
  /**
   * "network": undefined when absent; else whether it names TCP (queries are TCP connections,
   * as a SOCKS CONNECT is).
   */
  readonly networkTcp: boolean | undefined;
}

/** A parsed rule list. */
export interface RouteRuleSet {
  readonly rules: readonly RouteRule[];
  /** Things v2ray ignores that a user may not expect it to (unknown keys, a balancerTag beside an outboundTag). */
  readonly warnings: readonly string[];
  /** The tags of a whole config's "outbounds", in order ("" for none); undefined without them. */
  readonly outboundTags: readonly string[] | undefined;
}

/** Fields v2ray has that geo route cannot evaluate: a query carries only a domain or an address. */
const UNSUPPORTED = ['port', 'source', 'sourcePort', 'user', 'inboundTag', 'protocol', 'attrs'];
const KNOWN = ['type', 'outboundTag', 'balancerTag', 'domain', 'domains', 'ip', 'network', ...UNSUPPORTED];

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object's fields by Go's matching: a key names a field when equal ignoring case; the last one wins. */
function fields(
  obj: Record<string, Json>,
  names: readonly string[],
): { byName: Map<string, Json>; unknown: string[] } {
  const byName = new Map<string, Json>();
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const name = names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name) byName.set(name, value);
    else unknown.push(key);
  }
  return { byName, unknown };
}

/** A StringList: an array of strings, or one string split at commas; null or absent: undefined. */
function stringList(value: Json, where: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new GeoError('route_rule', `${where}: expected an array of strings or a comma-separated string`);
}

/** Whether an unsupported field's value leaves v2ray without a condition (null, "", []). */
function isEmptyValue(value: Json): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A JSON.parse failure with the line and column of its position. */
function jsonError(text: string, name: string, err: unknown): GeoError {
  const message = err instanceof Error ? err.message : String(err);
  const at = /position (\d+)/.exec(message);
  if (!at) return new GeoError('route_rule', `${name}: not valid JSON: ${message}`);
  const pos = Number(at[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return new GeoError('route_rule', `${name}:${line}:${column}: not valid JSON: ${message}`);
}

const STRATEGIES_NEEDING_DNS: Record<string, string> = {
  ipifnonmatch: 'IPIfNonMatch',
  ip_if_non_match: 'IPIfNonMatch',
  'ip-if-non-match': 'IPIfNonMatch',
  ipondemand: 'IPOnDemand',
  ip_on_demand: 'IPOnDemand',
  'ip-on-demand': 'IPOnDemand',
};

/** Refuses a domainStrategy that makes v2ray resolve names (AlwaysIP and unknown ones route as AsIs in 4.34). */
function checkStrategy(value: Json, where: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') throw new GeoError('route_rule', `${where}: expected a string`);
  const needs = STRATEGIES_NEEDING_DNS[value.toLowerCase()];
  if (needs) {
    throw new GeoError(
      'route_rule',
      `${where}: ${needs} makes v2ray resolve names through DNS, which geo route does not do; use AsIs (and query the addresses yourself)`,
    );
  }
}

/** The tags of a config's outbounds (v2ray's first outbound is the one used when no rule matches). */
function outboundTags(doc: Json): string[] | undefined {
  if (!isObject(doc)) return undefined;
  const list = fields(doc, ['outbounds']).byName.get('outbounds');
  if (!Array.isArray(list)) return undefined;
  return list.map((o) => {
    const tag = isObject(o) ? fields(o, ['tag']).byName.get('tag') : undefined;
    return typeof tag === 'string' ? tag : '';
  });
}

/** The raw rules, each with the path it was found at (`routing.rules[2]`). */
function ruleArray(doc: Json, name: string): { raw: Json; path: string }[] {
  const at = (list: Json[], path: string) => list.map((raw, k) => ({ raw, path: `${path}[${k}]` }));
  if (Array.isArray(doc)) return at(doc, 'rules');
  if (!isObject(doc))
    throw new GeoError(
      'route_rule',
      `${name}: expected an object with "rules" or "routing", or an array of rules`,
    );
  const top = fields(doc, ['rules', 'routing', 'domainStrategy']).byName;
  const routing = top.get('routing');
  if (routing !== undefined && routing !== null) {
    if (!isObject(routing)) throw new GeoError('route_rule', `${name}: routing: expected an object`);
    const r = fields(routing, ['rules', 'settings', 'domainStrategy', 'balancers']).byName;
    const settings = r.get('settings');
    const old = isObject(settings) ? fields(settings, ['rules', 'domainStrategy']).byName : undefined;
    if (r.get('domainStrategy') !== undefined && r.get('domainStrategy') !== null)
      checkStrategy(r.get('domainStrategy'), `${name}: routing.domainStrategy`);
    else checkStrategy(old?.get('domainStrategy'), `${name}: routing.settings.domainStrategy`);
    const list = (v: Json, where: string): Json[] => {
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v)) throw new GeoError('route_rule', `${name}: ${where}: expected an array`);
      return v;
    };
    return [
      ...at(list(r.get('rules'), 'routing.rules'), 'routing.rules'),
      ...at(list(old?.get('rules'), 'routing.settings.rules'), 'routing.settings.rules'),
    ];
  }
  checkStrategy(top.get('domainStrategy'), `${name}: domainStrategy`);
  const rules = top.get('rules');
  if (!Array.isArray(rules))
    throw new GeoError('route_rule', `${name}: expected "rules" (an array) or "routing"`);
  return at(rules, 'rules');
}

/** Reads one rule; `where` names it (`rules.json: rules[2]`). */
function parseRule(raw: Json, index: number, where: string, warnings: string[]): RouteRule {
  if (!isObject(raw)) throw new GeoError('route_rule', `${where}: expected an object`);
  const { byName, unknown } = fields(raw, KNOWN);
  for (const key of unknown)
    warnings.push(`${where}: "${key}" is not a v2ray 4.34 rule field; ignored, as v2ray ignores it`);
  const str = (field: string): string => {
    const v = byName.get(field);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new GeoError('route_rule', `${where}.${field}: expected a string`);
    return v;
  };
  const type = str('type');
  if (type.toLowerCase() !== 'field') {
    throw new GeoError(
      'route_rule',
      `${where}.type: "${type}" is not a known rule type (v2ray knows only "field")`,
    );
  }
  const outboundTag = str('outboundTag');
  const balancerTag = str('balancerTag');
  if (outboundTag === '') {
    if (balancerTag !== '')
      throw new GeoError(
        'route_rule',
        `${where}.balancerTag: balancers are not supported (a balancer picks its outbound at run time)`,
      );
    throw new GeoError('route_rule', `${where}: neither outboundTag nor balancerTag is given`);
  }
  if (balancerTag !== '')
    warnings.push(`${where}: balancerTag is ignored beside outboundTag, as v2ray ignores it`);
  for (const field of UNSUPPORTED) {
    const v = byName.get(field);
    if (v === undefined || isEmptyValue(v)) continue;
    throw new GeoError(
      'route_rule',
      `${where}.${field}: not supported: a geo route query carries only a domain or an address (remove the field or the rule)`,
    );
  }
  const domain: DomainEntry[] = [];
  const domainText: string[] = [];
  for (const field of ['domain', 'domains']) {
    const list = stringList(byName.get(field), `${where}.${field}`) ?? [];
    list.forEach((text, k) => {
      domain.push(entry(() => parseDomainEntry(text), `${where}.${field}[${k}]`));
      domainText.push(text);
    });
  }
  const ipText = stringList(byName.get('ip'), `${where}.ip`) ?? [];
  const ip = ipText.map((text, k) => entry(() => parseIpEntry(text), `${where}.ip[${k}]`));
  const network = stringList(byName.get('network'), `${where}.network`);
  // A network list only makes a condition when it has entries; names are not trimmed ("tcp, udp" holds " udp").
  const networkTcp =
    network && network.length > 0 ? network.some((n) => n.toLowerCase() === 'tcp') : undefined;
  return { index, where, outboundTag, domain, domainText, ip, ipText, networkTcp };
}

function entry<T>(parse: () => T, where: string): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof EntryError) throw new GeoError('route_rule', `${where}: ${err.message}`);
    throw err;
  }
}

/**
 * Parses a rule list from JSON text; `name` (a file name) starts every message. Lists named in
 * the rules are not opened here (RouteTable.compile does that).
 */
export function parseRouteRules(text: string, name: string): RouteRuleSet {
  let doc: Json;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw jsonError(text, name, err);
  }
  return routeRulesFrom(doc, name);
}

/** As parseRouteRules, from a value already parsed (a request body). */
export function routeRulesFrom(doc: Json, name: string): RouteRuleSet {
  const warnings: string[] = [];
  const parsed = ruleArray(doc, name).map((r, k) => parseRule(r.raw, k, `${name}: ${r.path}`, warnings));
  return { rules: parsed, warnings, outboundTags: outboundTags(doc) };
}
