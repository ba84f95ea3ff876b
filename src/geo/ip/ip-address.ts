// Parses and formats IPv4/IPv6 addresses and CIDRs without allocation-heavy helpers: IPv4 as an
// unsigned 32-bit number, IPv6 as a 128-bit bigint. Strict like Go's net.ParseCIDR (no leading
// zeros in IPv4 octets, no zones); text form of IPv6 follows RFC 5952.

/** A parsed CIDR: family, network start (host bits cleared) and prefix length. */
export type ParsedCidr =
  | { readonly v6: false; readonly start: number; readonly prefix: number }
  | { readonly v6: true; readonly start: bigint; readonly prefix: number };

/** Parses a dotted IPv4 address to a uint32, or returns -1. */
export function parseIPv4(text: string): number {
  let value = 0;
  let octets = 0;
  let i = 0;
  const n = text.length;
  while (i <= n) {
    const start = i;
    let octet = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      octet = octet * 10 + (c - 48);
      i++;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && text.charCodeAt(start) === 48)) return -1;
    value = value * 256 + octet;
    octets++;
    if (i === n) break;
    if (text.charCodeAt(i) !== 46 || octets === 4) return -1;
    i++;
  }
  return octets === 4 ? value : -1;
}

/** Parses an IPv6 address (with `::` and an optional dotted IPv4 tail) to a bigint, or undefined. */
export function parseIPv6(text: string): bigint | undefined {
  if (text.length < 2 || text.length > 45) return undefined;
  const gap = text.indexOf('::');
  if (gap !== -1 && text.indexOf('::', gap + 1) !== -1) return undefined;
  const parseGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups: number[] = [];
    const pieces = part.split(':');
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k] as string;
      if (k === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 < 0) return undefined;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      groups.push(Number.parseInt(piece, 16));
    }
    return groups;
  };
  let groups: number[];
  if (gap === -1) {
    const all = parseGroups(text);
    if (all?.length !== 8) return undefined;
    groups = all;
  } else {
    const head = parseGroups(text.slice(0, gap));
    const tail = parseGroups(text.slice(gap + 2));
    if (!head || !tail || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  let hex = '0x';
  for (const g of groups) hex += g.toString(16).padStart(4, '0');
  return BigInt(hex);
}

const V6_MAX = (1n << 128n) - 1n;

/** Parses `addr/prefix` or a bare address (as /32 or /128); clears host bits. Undefined when invalid. */
export function parseCidr(text: string): ParsedCidr | undefined {
  const slash = text.indexOf('/');
  const addr = slash === -1 ? text : text.slice(0, slash);
  let prefix = -1;
  if (slash !== -1) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p)) return undefined;
    prefix = Number(p);
  }
  if (addr.includes(':')) {
    const v = parseIPv6(addr);
    if (v === undefined) return undefined;
    if (prefix === -1) prefix = 128;
    if (prefix > 128) return undefined;
    const mask = prefix === 0 ? 0n : (V6_MAX >> BigInt(128 - prefix)) << BigInt(128 - prefix);
    return { v6: true, start: v & mask, prefix };
  }
  const v = parseIPv4(addr);
  if (v < 0) return undefined;
  if (prefix === -1) prefix = 32;
  if (prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  return { v6: false, start: v - (v % size), prefix };
}

/** Formats a uint32 as dotted IPv4. */
export function formatIPv4(value: number): string {
  return `${Math.floor(value / 16777216)}.${Math.floor(value / 65536) % 256}.${Math.floor(value / 256) % 256}.${value % 256}`;
}

/** Formats a 128-bit value as RFC 5952 IPv6 text (longest zero run of 2+ groups compressed). */
export function formatIPv6(value: bigint): string {
  const groups: number[] = [];
  for (let k = 7; k >= 0; k--) groups.push(Number((value >> BigInt(k * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let k = 0; k < 8; ) {
    if (groups[k] !== 0) {
      k++;
      continue;
    }
    let end = k;
    while (end < 8 && groups[end] === 0) end++;
    if (end - k > bestLen) {
      bestStart = k;
      bestLen = end - k;
    }
    k = end;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':');
  if (bestStart === -1) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLen, 8)}`;
}

/** Formats CIDR bytes (4 or 16) and prefix as text, e.g. `10.0.0.0/8` or `fc00::/7`. */
export function formatCidr(ip: Uint8Array, prefix: number): string {
  if (ip.length === 4) {
    return `${ip[0]}.${ip[1]}.${ip[2]}.${ip[3]}/${prefix}`;
  }
  return `${formatIPv6(bytesToBigint(ip))}/${prefix}`;
}

/** Reads big-endian bytes as an unsigned bigint. */
export function bytesToBigint(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** Writes an unsigned bigint as `length` big-endian bytes. */
export function bigintToBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const hex = value.toString(16).padStart(length * 2, '0');
  for (let k = 0; k < length; k++) out[k] = Number.parseInt(hex.slice(k * 2, k * 2 + 2), 16);
  return out;
}

/** A parsed network in wire form: 4 or 16 address bytes and the prefix. */
export function cidrBytes(parsed: ParsedCidr): { ip: Uint8Array; prefix: number } {
  const ip = parsed.v6
    ? bigintToBytes(parsed.start, 16)
    : Uint8Array.of(
        parsed.start >>> 24,
        (parsed.start >>> 16) & 255,
        (parsed.start >>> 8) & 255,
        parsed.start & 255,
      );
  return { ip, prefix: parsed.prefix };
}
