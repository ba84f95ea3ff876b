// Builds a matcher from an opened .dat file: decodes only the lists asked for (all of them by
// default), tells site from IP files as `geo info` does, and answers a batch of queries.
//   GeoDat -> readSite / readIp (selected entries) -> SiteMatcher | IpMatcher -> codes per query
import { GeoError } from '../errors.js';
import { type ListSelector, parseListSelector } from '../formats/list-text.js';
import { buildIpTablesWithCore, type CoreList, ipCoreAvailable } from '../ip/ip-core.js';
import { IpMatcher, IpMatcherBuilder } from '../ip/ip-matcher.js';
import { ruleHasAttributes } from '../site/site-decoder.js';
import { type SiteMatcher, SiteMatcherBuilder } from '../site/site-matcher.js';
import type { DatEntry, GeoDat } from './geo-dat.js';

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
  if (dat.kind === 'ip') return { kind: 'ip', matcher: loadIpMatcher(dat, codes) };
  return { kind: 'site', matcher: loadSiteMatcher(dat, codes) };
}

/**
 * Builds the site matcher straight from the file's bytes: full and domain names go from each
 * entry's bytes into the matcher's character pool, with no object per rule. `codes` are
 * selectors (`cn`, `google@ads`); without them every list of the file, in file order.
 */
export function loadSiteMatcher(dat: GeoDat, codes?: readonly string[]): SiteMatcher {
  const lists = dat.lists();
  const selectors: ListSelector[] = codes
    ? codes.map((c) => {
        const selector = parseListSelector(c);
        return { code: dat.get(selector.code).code.toUpperCase(), attrs: selector.attrs };
      })
    : [...lists.keys()].map((code) => ({ code, attrs: [] }));
  const builder = new SiteMatcherBuilder(dat.size);
  for (const { code, attrs } of selectors) {
    const entries = lists.get(code) as readonly DatEntry[];
    if (!builder.beginTarget([code, ...attrs].join('@'), code)) continue;
    for (const entry of entries) {
      let at = entry.offset;
      try {
        dat.scanSite(entry, {
          rule: (type, bytes, valueStart, valueEnd, ruleStart, ruleEnd) => {
            at = entry.offset + ruleStart;
            if (attrs.length > 0 && !ruleHasAttributes(bytes, ruleStart, ruleEnd, entry.offset, attrs))
              return;
            builder.addRuleBytes(type, bytes, valueStart, valueEnd);
          },
        });
      } catch (err) {
        // A rule the matcher refuses (a regexp it cannot run): say which file and where.
        if (err instanceof GeoError && !/byte \d+/.test(err.message)) {
          const message = err.message.startsWith(`${dat.name}: `)
            ? err.message.slice(dat.name.length + 2)
            : err.message;
          throw new GeoError(err.code, `${dat.name}: rule at byte ${at}: ${message}`);
        }
        throw err;
      }
    }
  }
  return builder.build();
}

/** How loadIpMatcher builds: `auto` (the default) as below; the others for tests and benchmarks. */
export type IpBuildEngine = 'auto' | 'wasm' | 'js';

/**
 * Builds the IP matcher straight from the file's bytes: each chosen list's networks go from the
 * entry's bytes into the builder's typed arrays, with no object per network. The WebAssembly
 * core (src/geo/ip/ip-core.ts) builds files in the encoding every builder writes; the
 * JavaScript builder takes any other valid file, a list out of order, and reports errors with
 * their offsets. `engine: 'wasm'` throws where the core hands the build back (for tests);
 * `'js'` skips the core.
 */
export function loadIpMatcher(
  dat: GeoDat,
  codes?: readonly string[],
  options: { readonly engine?: IpBuildEngine } = {},
): IpMatcher {
  const lists = dat.lists();
  const chosen = new Map<string, readonly DatEntry[]>();
  if (!codes) for (const [code, entries] of lists) chosen.set(code, entries);
  else {
    for (const c of codes) {
      if (c.includes('@')) throw new GeoError('usage', `IP lists have no attributes ("${c}")`);
      const code = dat.get(c.trim()).code.toUpperCase();
      chosen.set(code, lists.get(code) as readonly DatEntry[]);
    }
  }
  const engine = options.engine ?? 'auto';
  if (engine !== 'js') {
    const built = loadIpWithCore(dat, chosen);
    if (built) return built;
    if (engine === 'wasm') {
      throw new Error(
        ipCoreAvailable()
          ? `${dat.name}: the WebAssembly core handed the build back`
          : 'the WebAssembly core is not available (no WebAssembly in this runtime)',
      );
    }
  }
  const builder = new IpMatcherBuilder(dat.size);
  for (const [code, entries] of chosen) {
    builder.beginList(code);
    // Fed again (once) when the list's networks were not in order: see IpMatcherBuilder.
    for (;;) {
      let inverse: boolean | undefined;
      for (const entry of entries) {
        const { inverseMatch } = dat.scanIp(entry, builder.sink);
        checkInverse(dat, code, inverse, inverseMatch);
        inverse = inverseMatch;
      }
      if (builder.endList(inverse === true)) break;
    }
  }
  return builder.build();
}

/** Entries sharing a code count as one list, so they must agree on inverse_match. */
function checkInverse(dat: GeoDat, code: string, before: boolean | undefined, now: boolean): void {
  if (before !== undefined && before !== now) {
    throw new GeoError(
      'dat_corrupt',
      `${dat.name}: two lists "${code}", one with inverse_match and one without`,
    );
  }
}

/** The build through the WebAssembly core, or undefined when it hands the build back. */
function loadIpWithCore(
  dat: GeoDat,
  chosen: ReadonlyMap<string, readonly DatEntry[]>,
): IpMatcher | undefined {
  const coreLists: CoreList[] = [];
  let total = 0;
  for (const [code, entries] of chosen) {
    let inverse: boolean | undefined;
    for (const entry of entries) total += entry.length;
    coreLists.push({
      lengths: entries.map((e) => e.length),
      read: (k, offset, into) => dat.readEntryInto(entries[k] as DatEntry, offset, into),
      inverse: (k, inverseMatch) => {
        checkInverse(dat, code, k === 0 ? undefined : inverse, inverseMatch);
        inverse = inverseMatch;
      },
    });
  }
  const tables = buildIpTablesWithCore(coreLists, total);
  return tables && IpMatcher.fromTables([...chosen.keys()], tables);
}

/** Matches each query (a domain, or an address for IP files); a bad address is a GeoError. */
export function matchQueries(m: DatMatcher, queries: readonly string[]): QueryMatch[] {
  return queries.map((query) => ({ query, codes: m.matcher.matchCodes(query) }));
}
