// Queries for routing tests, each as `geo route` reads it (text) and as a SOCKS5 client sends it:
// names from real site lists with their subdomains and near misses (a letter more, a label less, a
// capital, a final dot), strings a list's regexps produce, and addresses at the edges of real CIDR
// lists and inside them, IPv4 and IPv6. Deterministic for a seed.
import { formatIPv4, formatIPv6, parseCidr } from '../../../src/geo/ip/ip-address.js';
import { DomainType, type SiteList } from '../../../src/geo/model.js';
import { seededRandom } from '../../../src/shared/seeded-random.js';
import type { SocksTarget } from './socks5-client.js';

export { seededRandom };

/** One query: the text decide() reads and what the SOCKS client sends. */
export interface RouteQuery {
  readonly text: string;
  readonly target: SocksTarget;
}

/** Characters a SOCKS server accepts in a name (v2ray's isValidDomain), at most 255 bytes. */
const SOCKS_NAME = /^[0-9A-Za-z._-]{1,255}$/;

/** A domain query (sent as ATYP 3). */
export function domainQuery(name: string): RouteQuery {
  return { text: name, target: { domain: name } };
}

/** An IPv4 query as a uint32, sent as 4 bytes (or as 16, IPv4-mapped, when `mapped`). */
export function ipv4Query(ip: number, mapped = false): RouteQuery {
  const bytes = [ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255];
  if (!mapped) return { text: formatIPv4(ip), target: { address: Uint8Array.from(bytes) } };
  const address = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, ...bytes]);
  return { text: `::ffff:${formatIPv4(ip)}`, target: { address } };
}

/** An IPv6 query, sent as 16 bytes. */
export function ipv6Query(ip: bigint): RouteQuery {
  const address = new Uint8Array(16);
  let v = ip;
  for (let k = 15; k >= 0; k--) {
    address[k] = Number(v & 0xffn);
    v >>= 8n;
  }
  return { text: formatIPv6(ip), target: { address } };
}

/**
 * A string a simple RE2 pattern matches (literals, escapes, classes, groups with alternatives,
 * quantifiers), or undefined for anything else.
 */
export function sampleRegex(pattern: string, rnd: () => number): string | undefined {
  let pos = 0;
  const pickRange = (cls: string): string | undefined => {
    const chars: string[] = [];
    for (let k = 0; k < cls.length; k++) {
      if (cls[k + 1] === '-' && k + 2 < cls.length) {
        for (let c = cls.charCodeAt(k); c <= cls.charCodeAt(k + 2); c++) chars.push(String.fromCharCode(c));
        k += 2;
      } else if (cls[k] === '\\') {
        chars.push(cls[k + 1] === 'd' ? '5' : (cls[k + 1] ?? ''));
        k++;
      } else chars.push(cls[k] as string);
    }
    return chars.length > 0 && !cls.startsWith('^') ? chars[Math.floor(rnd() * chars.length)] : undefined;
  };
  const alternatives = (): string | undefined => {
    const options: string[] = [];
    for (;;) {
      const s = sequence();
      if (s === undefined) return undefined;
      options.push(s);
      if (pattern[pos] !== '|') break;
      pos++;
    }
    return options[Math.floor(rnd() * options.length)];
  };
  const atom = (): (() => string | undefined) | undefined => {
    const c = pattern[pos] as string;
    if (c === '(') {
      const start = ++pos;
      // Sample once per repetition: remember where the group is and run it again.
      let depth = 1;
      while (pos < pattern.length && depth > 0) {
        if (pattern[pos] === '\\') pos++;
        else if (pattern[pos] === '(') depth++;
        else if (pattern[pos] === ')') depth--;
        pos++;
      }
      const end = pos;
      return () => {
        const saved = pos;
        pos = start;
        const s = alternatives();
        pos = saved;
        return pattern[end - 1] === ')' ? s : undefined;
      };
    }
    pos++;
    if (c === '\\') {
      const e = pattern[pos++];
      if (e === 'd') return () => String(Math.floor(rnd() * 10));
      if (e === 'w') return () => 'abcxyz019_'.charAt(Math.floor(rnd() * 10));
      return e && /[^a-zA-Z0-9]/.test(e) ? () => e : undefined;
    }
    if (c === '[') {
      const close = pattern.indexOf(']', pos + 1);
      if (close === -1) return undefined;
      const cls = pattern.slice(pos, close);
      pos = close + 1;
      return () => pickRange(cls);
    }
    if (c === '.') return () => 'abcdefgh'.charAt(Math.floor(rnd() * 8));
    if (c === '^' || c === '$') return () => '';
    if (/[*+?{|)]/.test(c)) return undefined;
    return () => c;
  };
  const sequence = (): string | undefined => {
    let out = '';
    while (pos < pattern.length && pattern[pos] !== '|' && pattern[pos] !== ')') {
      const a = atom();
      if (!a) return undefined;
      let min = 1;
      let max = 1;
      const q = pattern[pos];
      if (q === '*' || q === '+' || q === '?') {
        min = q === '+' ? 1 : 0;
        max = q === '?' ? 1 : 3;
        pos++;
      } else if (q === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(pos));
        if (!m) return undefined;
        min = Number(m[1]);
        max = m[2] ? (m[3] ? Number(m[3]) : min + 2) : min;
        pos += m[0].length;
      }
      const times = min + Math.floor(rnd() * (max - min + 1));
      for (let k = 0; k < times; k++) {
        const s = a();
        if (s === undefined) return undefined;
        out += s;
      }
    }
    return out;
  };
  const result = alternatives();
  return pos === pattern.length ? result : undefined;
}

/** Names around one rule value: itself, subdomains, near misses, a capital, a final dot. */
export function namesAround(value: string, rnd: () => number): string[] {
  const labels = value.split('.');
  const word = 'abcdefghijklmnopqrstuvwxyz'.charAt(Math.floor(rnd() * 26));
  return [
    value,
    `www.${value}`,
    `${word}${Math.floor(rnd() * 100)}.${value}`,
    `x${value}`,
    `${value}.evil`,
    labels.slice(1).join('.'),
    `WWW.${value}`,
    value.charAt(0).toUpperCase() + value.slice(1),
    `${value}.`,
    `a-b.${value.replace(/\.[^.]*$/, '')}`,
  ].filter((n) => SOCKS_NAME.test(n));
}

/** `count` values of a list's rules of the given type, spread over the list. */
export function sampleRules(list: SiteList, type: DomainType, count: number, rnd: () => number): string[] {
  const values = list.rules.filter((r) => r.type === type).map((r) => r.value);
  if (values.length <= count) return values;
  return Array.from({ length: count }, () => values[Math.floor(rnd() * values.length)] as string);
}

/** Domain queries from site lists: names around sampled domain and full values, regexp samples. */
export function domainQueriesFrom(
  lists: readonly SiteList[],
  perList: number,
  rnd: () => number,
): RouteQuery[] {
  const names = new Set<string>();
  for (const list of lists) {
    for (const v of sampleRules(list, DomainType.RootDomain, perList, rnd))
      for (const n of namesAround(v, rnd)) names.add(n);
    for (const v of sampleRules(list, DomainType.Full, Math.ceil(perList / 4), rnd))
      for (const n of namesAround(v, rnd)) names.add(n);
    for (const pattern of sampleRules(list, DomainType.Regex, 40, rnd)) {
      for (let k = 0; k < 3; k++) {
        const s = sampleRegex(pattern, rnd);
        if (s === undefined) break;
        for (const n of [s, `x${s}`, `${s}.x`]) if (SOCKS_NAME.test(n)) names.add(n);
      }
    }
  }
  return [...names].map(domainQuery);
}

/** Address queries from CIDR text: each sampled network's edges, their neighbours and a point inside. */
export function ipQueriesFrom(cidrText: string, perList: number, rnd: () => number): RouteQuery[] {
  const cidrs = cidrText
    .split('\n')
    .map((l) => parseCidr(l.trim()))
    .filter((c) => c !== undefined);
  const picked =
    cidrs.length <= perList
      ? cidrs
      : Array.from({ length: perList }, () => cidrs[Math.floor(rnd() * cidrs.length)]);
  const out: RouteQuery[] = [];
  for (const c of picked) {
    if (!c) continue;
    if (!c.v6) {
      const size = 2 ** (32 - c.prefix);
      const end = c.start + size - 1;
      for (const ip of [c.start, end, c.start - 1, end + 1, c.start + Math.floor(rnd() * size)]) {
        if (ip >= 0 && ip <= 0xffffffff) out.push(ipv4Query(ip, rnd() < 0.1));
      }
    } else {
      const size = 1n << BigInt(128 - c.prefix);
      const end = c.start + size - 1n;
      const inside = c.start + (BigInt(Math.floor(rnd() * 2 ** 32)) * size) / 2n ** 32n;
      for (const ip of [c.start, end, c.start - 1n, end + 1n, inside]) {
        if (ip >= 0n && ip < 1n << 128n && ip >> 32n !== 0xffffn) out.push(ipv6Query(ip));
      }
    }
  }
  return out;
}

/** The networks outside a list (both families), as CIDR text lines: what `geoip:!CODE` holds. */
export function complementText(cidrText: string): string {
  const ranges: { v6: boolean; start: bigint; end: bigint }[] = [];
  for (const line of cidrText.split('\n')) {
    const c = parseCidr(line.trim());
    if (!c) continue;
    const bits = c.v6 ? 128 : 32;
    const start = BigInt(c.start);
    ranges.push({ v6: c.v6, start, end: start + (1n << BigInt(bits - c.prefix)) - 1n });
  }
  const out: string[] = [];
  for (const v6 of [false, true]) {
    const bits = v6 ? 128n : 32n;
    const mine = ranges
      .filter((r) => r.v6 === v6)
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    let next = 0n;
    const gap = (from: bigint, to: bigint) => {
      let at = from;
      while (at <= to) {
        let size = 1n;
        while (at % (size * 2n) === 0n && at + size * 2n - 1n <= to && size * 2n <= 1n << bits) size *= 2n;
        let prefix = bits;
        for (let s = size; s > 1n; s /= 2n) prefix--;
        out.push(`${v6 ? formatIPv6(at) : formatIPv4(Number(at))}/${prefix}`);
        at += size;
      }
    };
    for (const r of mine) {
      if (r.start > next) gap(next, r.start - 1n);
      if (r.end + 1n > next) next = r.end + 1n;
    }
    if (next <= (1n << bits) - 1n) gap(next, (1n << bits) - 1n);
  }
  return `${out.join('\n')}\n`;
}
