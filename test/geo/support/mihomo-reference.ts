// Reference evaluations for the mihomo provider tests, written plainly and apart from the code
// under test: mihomo's DomainSet.Has walked over the raw .mrs bytes (component/trie/domain_set.go,
// without `*` wildcards), and straightforward matching of read-back site and IP lists.
import { DomainType, type IpList, type SiteList } from '../../../src/geo/model.js';

/** mihomo's domain set as stored in a domain .mrs payload (after the 21-byte header). */
export class MihomoDomainSet {
  private readonly leaves: boolean[] = [];
  private readonly labels: Uint8Array;
  /** Node i's labels are labels[first[i], first[i + 1]); label k leads to node k + 1. */
  private readonly first: number[] = [0];

  constructor(payload: Uint8Array) {
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    let p = 21;
    if (payload[p++] !== 1) throw new Error('domain set version');
    const words = (): bigint[] => {
      const n = Number(view.getBigInt64(p, false));
      p += 8;
      const out: bigint[] = [];
      for (let k = 0; k < n; k++, p += 8) out.push(view.getBigUint64(p, false));
      return out;
    };
    const bit = (ws: bigint[], i: number) => (((ws[i >> 6] ?? 0n) >> BigInt(i & 63)) & 1n) === 1n;
    const leafWords = words();
    const bitmapWords = words();
    const labelCount = Number(view.getBigInt64(p, false));
    this.labels = payload.subarray(p + 8, p + 8 + labelCount);
    for (let i = 0; i <= labelCount; i++) this.leaves.push(bit(leafWords, i));
    let label = 0;
    for (let b = 0; b < bitmapWords.length * 64; b++) {
      if (bit(bitmapWords, b)) this.first.push(label);
      else label++;
    }
  }

  /** DomainSet.Has: walk the reversed, lower-cased name; a `+` label matches whatever follows. */
  has(name: string): boolean {
    const key = new TextEncoder().encode(Array.from(name).reverse().join('').toLowerCase());
    let node = 0;
    for (const c of key) {
      let next = -1;
      for (let k = this.first[node] as number; k < (this.first[node + 1] as number); k++) {
        const l = this.labels[k] as number;
        if (l === 0x2b) return true;
        if (l === c) {
          next = k + 1;
          break;
        }
      }
      if (next === -1) return false;
      node = next;
    }
    return this.leaves[node] === true;
  }
}

/** The subdomain-only regexp shape the provider reader produces for `.example.com`. */
const SUB = /^\^\.\+\\\.(.+)\$$/;

/** Matches a name against a read-back site list: full, domain, and subdomain-only rules only. */
export class PlainSiteEval {
  private readonly full = new Set<string>();
  private readonly root = new Set<string>();
  private readonly sub = new Set<string>();

  constructor(list: SiteList) {
    for (const r of list.rules) {
      if (r.type === DomainType.Full) this.full.add(r.value);
      else if (r.type === DomainType.RootDomain) this.root.add(r.value);
      else if (r.type === DomainType.Regex) {
        const m = SUB.exec(r.value);
        if (!m) throw new Error(`unexpected regexp ${r.value}`);
        this.sub.add((m[1] as string).replaceAll('\\.', '.'));
      } else throw new Error(`unexpected rule type ${r.type}`);
    }
  }

  /** True when some rule matches the (lower-case) name. */
  has(name: string): boolean {
    if (this.full.has(name) || this.root.has(name)) return true;
    for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) {
      const parent = name.slice(i + 1);
      if (this.root.has(parent) || (i > 0 && this.sub.has(parent))) return true;
    }
    return false;
  }
}

/** An IP list as sorted inclusive ranges per family, searched by bisection. */
export class PlainIpEval {
  private readonly v4: [bigint, bigint][] = [];
  private readonly v6: [bigint, bigint][] = [];

  constructor(list: IpList) {
    for (const c of list.cidrs) {
      let start = 0n;
      for (const b of c.ip) start = (start << 8n) | BigInt(b);
      const host = BigInt(c.ip.length * 8 - c.prefix);
      (c.ip.length === 4 ? this.v4 : this.v6).push([start, start + (1n << host) - 1n]);
    }
    for (const ranges of [this.v4, this.v6]) {
      ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      // Overlapping networks (the text forms keep them) joined, so bisection sees every address.
      let w = 0;
      for (const r of ranges) {
        const last = ranges[w - 1];
        if (last && r[0] <= last[1]) {
          if (r[1] > last[1]) last[1] = r[1];
        } else ranges[w++] = [r[0], r[1]];
      }
      ranges.length = w;
    }
  }

  /** True when some network holds the address (a bigint of the given family). */
  has(v6: boolean, address: bigint): boolean {
    const ranges = v6 ? this.v6 : this.v4;
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [s, e] = ranges[mid] as [bigint, bigint];
      if (address < s) hi = mid - 1;
      else if (address > e) lo = mid + 1;
      else return true;
    }
    return false;
  }
}
