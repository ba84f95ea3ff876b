// The IP conditions of a rule list: every list v2ray's search answers as a set goes into one
// IpMatcher (a query is matched once for all of them); a list with nested or overlapping networks
// is searched with v2ray's own search (V2rayCidrList), which can miss addresses such a list holds.
// A list file's inverse_match flag is ignored (4.34's GeoIP has no such field); `geoip:!CODE` is
// the inverse of CODE, as Xray reads it.
import type { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { type IpMatcher, IpMatcherBuilder } from '../ip/ip-matcher.js';
import type { RouteCidr } from './route-entries.js';
import { V2rayCidrList } from './v2ray-cidr-list.js';

/** A loaded list: its IpMatcher index, or its own search when that disagrees with the set. */
interface IpList {
  readonly target: number;
  readonly search: V2rayCidrList | undefined;
}

/** An address as a query: IPv4 as a uint32, IPv6 (never IPv4-mapped) as a bigint. */
export type RouteAddress =
  | { readonly v6: false; readonly ip: number }
  | { readonly v6: true; readonly ip: bigint };

/** The networks of a list file's entry, host bits as written. */
function readCidrs(dat: GeoDat, code: string, where: string): RouteCidr[] {
  // A file with no rule at all (kind 'empty') serves either kind.
  if (dat.kind === 'site') {
    throw new GeoError('dat_kind', `${where}: ${dat.name} holds ${dat.kind} lists, not IP lists`);
  }
  // v2ray takes the first entry whose code equals the name ignoring case.
  const entry = dat.lists().get(code.toUpperCase())?.[0];
  if (!entry) throw new GeoError('code_not_found', `${where}: no list "${code}" in ${dat.name}`);
  const cidrs: RouteCidr[] = [];
  dat.scanIp(entry, {
    v4: (starts, prefixes, n) => {
      for (let k = 0; k < n; k++)
        cidrs.push({ v6: false, ip: starts[k] as number, prefix: prefixes[k] as number });
    },
    v6: (words, prefixes, n) => {
      for (let k = 0; k < n; k++) {
        let ip = 0n;
        for (let j = 0; j < 4; j++) ip = (ip << 32n) | BigInt(words[k * 4 + j] as number);
        cidrs.push({ v6: true, ip, prefix: prefixes[k] as number });
      }
    },
  });
  return cidrs;
}

/** Builds the lists, then answers which hold for an address. */
export class IpConditions {
  private readonly builder = new IpMatcherBuilder();
  private readonly lists: IpList[] = [];
  private readonly byKey = new Map<string, number>();
  private targets = 0;
  private matcher: IpMatcher | undefined;
  private out = new Uint32Array(0);
  /** Per matcher list: the query stamp it was last hit at. */
  private hit = new Uint32Array(0);
  private stamp = 0;
  private readonly words = new Uint32Array(4);
  private address: RouteAddress = { v6: false, ip: 0 };

  /**
   * Adds a list of a file by v2ray's name for it (`CN`, `FILE.DAT_CN`): a name loaded before is
   * shared, as v2ray's GeoIP container shares it. Returns the list's index.
   */
  addList(key: string, dat: () => GeoDat, code: string, where: string): number {
    const seen = this.byKey.get(key);
    if (seen !== undefined) return seen;
    const index = this.addCidrs(readCidrs(dat(), code, where));
    this.byKey.set(key, index);
    return index;
  }

  /** Adds networks as one list (a rule's inline networks are one list in v2ray). */
  addCidrs(cidrs: readonly RouteCidr[]): number {
    const search = new V2rayCidrList(cidrs);
    let target = -1;
    if (search.agreesWithSet) {
      target = this.targets++;
      this.builder.beginList(String(target));
      const bytes = new Uint8Array(16);
      do {
        for (const c of cidrs) {
          if (!c.v6) {
            this.builder.addV4(c.ip, c.prefix);
            continue;
          }
          let v = c.ip;
          for (let k = 15; k >= 0; k--) {
            bytes[k] = Number(v & 0xffn);
            v >>= 8n;
          }
          this.builder.addV6(bytes, 0, c.prefix);
        }
      } while (!this.builder.endList(false));
    }
    this.lists.push({ target, search: target === -1 ? search : undefined });
    return this.lists.length - 1;
  }

  /** Compiles the matcher; call once, after the last add. */
  build(): void {
    this.matcher = this.builder.build();
    this.out = new Uint32Array(this.matcher.size);
    this.hit = new Uint32Array(this.matcher.size);
  }

  /** Takes an address query: matches it once for every list in the matcher. */
  prepare(address: RouteAddress): void {
    const m = this.matcher;
    if (!m) throw new Error('IpConditions: prepare before build');
    this.address = address;
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.hit.fill(0);
      this.stamp = 1;
    }
    if (this.targets === 0) return;
    let n: number;
    if (!address.v6) n = m.matchV4(address.ip, this.out);
    else {
      for (let k = 0; k < 4; k++) this.words[k] = Number((address.ip >> BigInt(96 - 32 * k)) & 0xffffffffn);
      n = m.matchV6(this.words, 0, this.out);
    }
    for (let k = 0; k < n; k++) this.hit[this.out[k] as number] = this.stamp;
  }

  /** Whether a list holds the prepared address. */
  holds(index: number): boolean {
    const list = this.lists[index] as IpList;
    if (!list.search) return this.hit[list.target] === this.stamp;
    const a = this.address;
    return a.v6 ? list.search.match6(a.ip) : list.search.match4(a.ip);
  }
}
