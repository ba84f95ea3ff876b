// One IP list searched exactly as v2ray 4.34's GeoIPMatcher searches it (app/router/
// condition_geoip.go): networks sorted by their address as written, host bits then cleared, and a
// binary search that looks at one network per step. On nested or overlapping networks (10.0.0.0/8
// beside 10.1.0.0/16) that search misses addresses the set holds; `agreesWithSet` says whether it
// can, and the route table searches such a list here instead of in the IpMatcher.
import type { RouteCidr } from './route-entries.js';

const V6_BITS = 128n;

function normalize4(ip: number, prefix: number): number {
  // Go shifts a uint32 by 32 to 0.
  if (prefix === 0) return 0;
  const shift = 32 - prefix;
  return shift === 0 ? ip : ((ip >>> shift) << shift) >>> 0;
}

function normalize6(ip: bigint, prefix: number): bigint {
  const shift = V6_BITS - BigInt(prefix);
  return (ip >> shift) << shift;
}

/** v2ray's CIDRList order: IPv4 first, then by the address as written, then by prefix. */
function compareCidrs(a: RouteCidr, b: RouteCidr): number {
  if (a.v6 !== b.v6) return a.v6 ? 1 : -1;
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  return a.prefix - b.prefix;
}

/** A list of networks with v2ray's search over it. */
export class V2rayCidrList {
  private readonly ip4: Uint32Array;
  private readonly prefix4: Uint8Array;
  private readonly ip6: bigint[];
  private readonly prefix6: Uint8Array;
  /** True when the search answers exactly whether an address is in one of the networks. */
  readonly agreesWithSet: boolean;

  constructor(cidrs: readonly RouteCidr[]) {
    const sorted = [...cidrs].sort(compareCidrs);
    const v4 = sorted.filter((c) => !c.v6);
    const v6 = sorted.filter((c) => c.v6);
    this.ip4 = Uint32Array.from(v4, (c) => normalize4(c.ip as number, c.prefix));
    this.prefix4 = Uint8Array.from(v4, (c) => c.prefix);
    this.ip6 = v6.map((c) => normalize6(c.ip as bigint, c.prefix));
    this.prefix6 = Uint8Array.from(v6, (c) => c.prefix);
    const starts4 = Array.from(this.ip4, (ip) => BigInt(ip));
    this.agreesWithSet =
      disjointInOrder(starts4, this.prefix4, 32) && disjointInOrder(this.ip6, this.prefix6, 128);
  }

  /** v2ray's match4: an IPv4 address as a uint32. */
  match4(ip: number): boolean {
    const a = this.ip4;
    if (a.length === 0 || ip < (a[0] as number)) return false;
    let l = 0;
    let r = a.length;
    while (l < r) {
      const x = (l + r) >>> 1;
      if (ip < (a[x] as number)) {
        r = x;
        continue;
      }
      if (normalize4(ip, this.prefix4[x] as number) === a[x]) return true;
      l = x + 1;
    }
    return l > 0 && normalize4(ip, this.prefix4[l - 1] as number) === a[l - 1];
  }

  /** v2ray's match6: an IPv6 address (not IPv4-mapped: those are IPv4 addresses). */
  match6(ip: bigint): boolean {
    const a = this.ip6;
    if (a.length === 0 || ip < (a[0] as bigint)) return false;
    let l = 0;
    let r = a.length;
    while (l < r) {
      const x = (l + r) >>> 1;
      if (ip < (a[x] as bigint)) {
        r = x;
        continue;
      }
      if (normalize6(ip, this.prefix6[x] as number) === a[x]) return true;
      l = x + 1;
    }
    return l > 0 && normalize6(ip, this.prefix6[l - 1] as number) === a[l - 1];
  }
}

/**
 * Whether networks (starts with host bits cleared, in search order) are ascending and apart, each
 * one after every earlier one ends, or a repeat of the one before: then the search finds the one
 * network that can hold an address, and answers as the set does.
 */
function disjointInOrder(starts: readonly bigint[], prefixes: Uint8Array, bits: number): boolean {
  let lastEnd = -1n;
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k] as bigint;
    const prefix = prefixes[k] as number;
    if (k > 0 && start === starts[k - 1] && prefix === prefixes[k - 1]) continue;
    if (start <= lastEnd) return false;
    lastEnd = start + (1n << BigInt(bits - prefix)) - 1n;
  }
  return true;
}
