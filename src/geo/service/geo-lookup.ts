// One lookup over a site file and an IP file at once: a query that parses as an IPv4/IPv6 address
// goes to the IP lists, anything else to the site lists, and the answer is the matching codes as
// the file spells them, sorted. `geo lookup` and POST /api/geo/lookup both answer with this.
//
//   files (+ --codes) -> GeoDat -> loadMatcher (selected lists only) -> GeoLookup.lookup(query)
import { statSync } from 'node:fs';
import { GeoDat } from '../dat/geo-dat.js';
import { datInfo, type ListInfo } from '../dat/geo-info.js';
import { loadMatcher } from '../dat/matcher-loader.js';
import { GeoError } from '../errors.js';
import { parseListSelector } from '../formats/list-text.js';
import { parseIPv4, parseIPv6 } from '../ip/ip-address.js';
import type { IpMatcher } from '../ip/ip-matcher.js';
import type { SiteMatcher } from '../site/site-matcher.js';

/** The files a lookup answers from; at least one. */
export interface GeoLookupFiles {
  site?: string | undefined;
  ip?: string | undefined;
  /** Only these lists (site lists may take `code@attr`); a code is taken from whichever file has it. */
  codes?: readonly string[] | undefined;
}

/** A loaded file as status pages show it. */
export interface LoadedGeoFile {
  path: string;
  kind: 'site' | 'ip';
  sizeBytes: number;
  modifiedMs: number;
  /** Every list of the file with its counts (also those not selected by codes). */
  lists: readonly ListInfo[];
  /** The lists the matcher holds (all of them without codes). */
  selected: readonly string[];
}

/** Whether a query is an IP address (IPv4 dotted quad or IPv6) rather than a domain. */
export function isIpQuery(query: string): boolean {
  return parseIPv4(query) >= 0 || (query.includes(':') && parseIPv6(query) !== undefined);
}

const codeOf = (selector: string) => parseListSelector(selector).code;

function openFile(path: string, want: 'site' | 'ip'): GeoDat {
  const dat = GeoDat.open(path);
  if (dat.kind !== want) {
    const kind = dat.kind;
    dat.close();
    const flag = want === 'site' ? '--site' : '--ip';
    throw new GeoError(
      'dat_kind',
      `${path}: given as ${flag} but holds ${kind === 'empty' ? 'no' : kind} lists`,
    );
  }
  return dat;
}

/** Matchers over the site and IP files, compiled once; lookups allocate only their answer. */
export class GeoLookup {
  private readonly siteOut: Uint32Array;
  private readonly ipOut: Uint32Array;

  private constructor(
    private readonly site: SiteMatcher | undefined,
    private readonly ip: IpMatcher | undefined,
    /** The files as loaded, site first. */
    readonly files: readonly LoadedGeoFile[],
  ) {
    this.siteOut = new Uint32Array(site?.codes.length ?? 0);
    this.ipOut = new Uint32Array(ip?.codes.length ?? 0);
  }

  /** Opens and compiles the files; a file, code or selector problem is a GeoError naming it. */
  static load(files: GeoLookupFiles): GeoLookup {
    if (!files.site && !files.ip) throw new GeoError('usage', 'give a site file, an IP file, or both');
    const dats: { dat: GeoDat; kind: 'site' | 'ip' }[] = [];
    try {
      if (files.site) dats.push({ dat: openFile(files.site, 'site'), kind: 'site' });
      if (files.ip) dats.push({ dat: openFile(files.ip, 'ip'), kind: 'ip' });
      // Each code goes to the file(s) that hold it; one that no file holds is refused by name.
      const wanted = new Map<'site' | 'ip', string[]>();
      if (files.codes) {
        for (const selector of files.codes) {
          const holders = dats.filter((d) => d.dat.find(codeOf(selector)) !== undefined);
          if (holders.length === 0) {
            const where = dats.map((d) => d.dat.name).join(' or ');
            throw new GeoError('code_not_found', `no list "${codeOf(selector)}" in ${where}`);
          }
          for (const h of holders) {
            if (h.kind === 'ip' && selector.includes('@')) continue;
            wanted.set(h.kind, [...(wanted.get(h.kind) ?? []), selector]);
          }
        }
      }
      let site: SiteMatcher | undefined;
      let ip: IpMatcher | undefined;
      const loaded: LoadedGeoFile[] = [];
      for (const { dat, kind } of dats) {
        const codes = files.codes ? wanted.get(kind) : undefined;
        // With codes, a file none of them names is not compiled at all.
        if (files.codes && !codes) continue;
        const m = loadMatcher(dat, codes);
        if (m.kind === 'site') site = m.matcher;
        else ip = m.matcher;
        const stat = statSync(dat.name);
        loaded.push({
          path: dat.name,
          kind,
          sizeBytes: stat.size,
          modifiedMs: stat.mtimeMs,
          lists: datInfo(dat).entries,
          selected: [...m.matcher.codes],
        });
      }
      return new GeoLookup(site, ip, loaded);
    } finally {
      for (const d of dats) d.dat.close();
    }
  }

  /** The codes matching a domain or an address, sorted; [] when nothing (or no file of that kind) matches. */
  lookup(query: string): string[] {
    const q = query.trim();
    if (q === '') return [];
    let n: number;
    let out: Uint32Array;
    let codes: readonly string[];
    if (isIpQuery(q)) {
      if (!this.ip) return [];
      out = this.ipOut;
      n = this.ip.match(q, out);
      codes = this.ip.codes;
    } else {
      if (!this.site) return [];
      out = this.siteOut;
      n = this.site.match(q, out);
      codes = this.site.codes;
    }
    const found: string[] = [];
    for (let k = 0; k < n; k++) found.push(codes[out[k] as number] as string);
    return found.sort();
  }
}
