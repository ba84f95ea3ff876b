// Turns parsed domain-list-community sources into sorted site lists, as the upstream builder does:
//   sources -> merge by code (+ &affiliations) -> resolve include: (filters, transitively, cycle
//   check; an include takes the included list's rules before its redundant subdomains are dropped)
//   -> de-duplicate by canonical text -> drop redundant subdomains -> sort -> SiteList[].
// Pure: no I/O; errors name the file:line of the include that failed.
import { GeoError } from '../errors.js';
import { DomainType, type SiteList, type SiteRule } from '../model.js';
import type { ParsedSource, SourceInclusion, SourceRule } from './site-source.js';

/** Options of compileSites. */
export interface CompileSitesOptions {
  /** Write only these lists (codes, any case); their includes are still resolved. Default: all. */
  readonly codes?: readonly string[] | undefined;
  /** Called after each list is resolved. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

interface PendingList {
  readonly code: string;
  readonly rules: SourceRule[];
  readonly inclusions: SourceInclusion[];
  readonly files: string[];
}

const TYPE_NUMBER: Record<SourceRule['type'], DomainType> = {
  keyword: DomainType.Plain,
  regexp: DomainType.Regex,
  domain: DomainType.RootDomain,
  full: DomainType.Full,
};

/** Compiles parsed sources into site lists sorted by code, byte-for-byte what upstream writes. */
export function compileSites(
  sources: readonly ParsedSource[],
  options: CompileSitesOptions = {},
): SiteList[] {
  const pending = new Map<string, PendingList>();
  const listOf = (code: string): PendingList => {
    let list = pending.get(code);
    if (!list) {
      list = { code, rules: [], inclusions: [], files: [] };
      pending.set(code, list);
    }
    return list;
  };
  for (const source of sources) {
    const list = listOf(source.code);
    list.files.push(source.file);
    for (const rule of source.rules) list.rules.push(rule);
    for (const inc of source.inclusions) list.inclusions.push(inc);
    for (const [target, rules] of source.affiliations) {
      for (const rule of rules) listOf(target).rules.push(rule);
    }
  }

  let wanted: string[];
  if (options.codes && options.codes.length > 0) {
    wanted = [...new Set(options.codes.map((c) => c.trim().toUpperCase()))];
    for (const code of wanted) {
      if (!pending.has(code)) throw new GeoError('code_not_found', `list "${code.toLowerCase()}" not found`);
    }
  } else {
    wanted = [...pending.keys()];
  }

  // Per list: its rough rules (own and included, de-duplicated, nothing dropped yet) and the
  // polished rules it is written with. An include takes the included list's rough rules and filters
  // those: a rule dropped from the included list only because of a parent the filter leaves out
  // must stay (upstream's builder does the same since it fixed this).
  const resolved = new Map<string, { rough: Map<string, SourceRule>; polished: SourceRule[] }>();
  const stack: string[] = [];
  const resolve = (code: string): { rough: Map<string, SourceRule>; polished: SourceRule[] } => {
    const done = resolved.get(code);
    if (done) return done;
    const list = pending.get(code) as PendingList;
    stack.push(code);
    const byPlain = new Map<string, SourceRule>();
    for (const rule of list.rules) byPlain.set(rule.plain, rule);
    for (const inc of list.inclusions) {
      if (!pending.has(inc.source)) {
        throw new GeoError(
          'source_include',
          `${inc.where}: included list "${inc.source.toLowerCase()}" not found`,
        );
      }
      const at = stack.indexOf(inc.source);
      if (at !== -1) {
        const chain = [...stack.slice(at), inc.source].map((c) => c.toLowerCase()).join(' -> ');
        throw new GeoError('source_cycle', `${inc.where}: circular inclusion ${chain}`);
      }
      const included = resolve(inc.source).rough;
      const unfiltered = inc.mustAttrs.length === 0 && inc.banAttrs.length === 0;
      for (const rule of included.values()) {
        if (unfiltered || passesFilter(rule, inc)) byPlain.set(rule.plain, rule);
      }
    }
    stack.pop();
    if (byPlain.size === 0) {
      const where = list.files.length > 0 ? list.files.join(', ') : `affiliations of "${code.toLowerCase()}"`;
      throw new GeoError('source_empty', `${where}: list "${code.toLowerCase()}" has no rules`);
    }
    const result = { rough: byPlain, polished: polish(byPlain) };
    resolved.set(code, result);
    return result;
  };

  const converted = new Map<SourceRule, SiteRule>();
  const toSiteRule = (rule: SourceRule): SiteRule => {
    let out = converted.get(rule);
    if (!out) {
      out = {
        type: TYPE_NUMBER[rule.type],
        value: rule.value,
        attributes: rule.attrs.map((key) => ({ key, value: true })),
      };
      converted.set(rule, out);
    }
    return out;
  };

  wanted.sort(compareCodePoints);
  const out: SiteList[] = [];
  for (const code of wanted) {
    out.push({ code, rules: resolve(code).polished.map(toSiteRule) });
    options.onProgress?.(out.length, wanted.length);
  }
  return out;
}

/** An include filter: every @must attribute present, no @-ban attribute present. */
function passesFilter(rule: SourceRule, inc: SourceInclusion): boolean {
  if (rule.attrs.length === 0) return inc.mustAttrs.length === 0;
  for (const must of inc.mustAttrs) if (!rule.attrs.includes(must)) return false;
  for (const ban of inc.banAttrs) if (rule.attrs.includes(ban)) return false;
  return true;
}

/**
 * Drops a redundant `domain:`/`full:` rule, then sorts by canonical text in UTF-8 byte order. A rule
 * without attributes is redundant under any `domain:` parent; a rule with attributes only under a
 * parent with the same attributes (so `geosite:x@attr` keeps matching). `domain:x` covers `full:x`.
 */
function polish(byPlain: Map<string, SourceRule>): SourceRule[] {
  const out: SourceRule[] = [];
  const queued: SourceRule[] = [];
  // Keys: the bare value (any attributes) and value + the attribute suffix of the canonical text.
  const domains = new Set<string>();
  for (const rule of byPlain.values()) {
    if (rule.type === 'domain') {
      domains.add(rule.value);
      if (rule.attrs.length > 0) domains.add(rule.plain.slice(7));
    }
    if (rule.type === 'domain' || rule.type === 'full') queued.push(rule);
    else out.push(rule);
  }
  for (const rule of queued) {
    const suffix = attrSuffix(rule);
    let parent = rule.type === 'full' ? `.${rule.value}` : rule.value;
    let redundant = false;
    for (let dot = parent.indexOf('.'); dot !== -1; dot = parent.indexOf('.')) {
      parent = parent.slice(dot + 1);
      if (domains.has(parent + suffix)) {
        redundant = true;
        break;
      }
    }
    if (!redundant) out.push(rule);
  }
  out.sort(compareRules);
  return out;
}

function attrSuffix(rule: SourceRule): string {
  return rule.attrs.length === 0 ? '' : `:@${rule.attrs.join(',@')}`;
}

function compareRules(a: SourceRule, b: SourceRule): number {
  if (a.wide || b.wide) return compareCodePoints(a.plain, b.plain);
  return a.plain < b.plain ? -1 : a.plain > b.plain ? 1 : 0;
}

/** Compares strings by code point, which is UTF-8 byte order (Go's strings.Compare). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
