// The strings of a routing rule's "domain" and "ip" arrays, read as v2ray 4.34 reads them
// (infra/conf/router.go): prefixes checked in v2ray's order and case, an unprefixed domain entry
// is a substring (keyword), "geoip:!CODE" is Xray's inverse list (4.34 itself refuses it).

import { parseIPv4, parseIPv6 } from '../ip/ip-address.js';
import { DomainType } from '../model.js';

/** A domain entry: a list from a site file (`geosite:`/`ext:`) or one rule written inline. */
export type DomainEntry =
  | {
      readonly kind: 'list';
      /** The asset file (`geosite.dat` for `geosite:`). */
      readonly file: string;
      readonly code: string;
      /** Attribute keys, lower case, each required. */
      readonly attrs: readonly string[];
    }
  | { readonly kind: 'rule'; readonly type: DomainType; readonly value: string };

/** An IP entry: a list from an IP file (`geoip:`/`ext:`), or one network written inline. */
export type IpEntry =
  | {
      readonly kind: 'list';
      /** The asset file (`geoip.dat` for `geoip:`). */
      readonly file: string;
      readonly code: string;
      /** `geoip:!CODE`: every address outside the list (Xray's reading). */
      readonly inverse: boolean;
      /** v2ray's name for the loaded list (`CN`, `FILE.DAT_CN`): lists are shared by it. */
      readonly key: string;
    }
  | { readonly kind: 'cidr'; readonly cidr: RouteCidr };

/** A network as written: the address with its host bits kept (v2ray clears them when matching). */
export type RouteCidr =
  | { readonly v6: false; readonly ip: number; readonly prefix: number }
  | { readonly v6: true; readonly ip: bigint; readonly prefix: number };

/** The default site and IP files, as v2ray names them in its asset directory. */
export const GEOSITE_FILE = 'geosite.dat';
/** See GEOSITE_FILE. */
export const GEOIP_FILE = 'geoip.dat';

/** Why an entry is refused (the caller adds where it is). */
export class EntryError extends Error {}

/** `ext:FILE:CODE` (or `ext-domain:` / `ext-ip:`) split as v2ray splits it: exactly one colon. */
function extParts(rest: string, entry: string): [string, string] {
  const parts = rest.split(':');
  if (parts.length !== 2)
    throw new EntryError(`invalid external resource "${entry}" (expected ext:FILE:CODE)`);
  return parts as [string, string];
}

/** `code@attr@attr` as v2ray's loadGeositeWithAttr reads it. */
function siteList(file: string, selector: string, entry: string): DomainEntry {
  const [list = '', ...rest] = selector.split('@');
  const code = list.trim();
  if (code === '') throw new EntryError(`empty list name in "${entry}"`);
  const attrs = rest.map((a) => a.trim().toLowerCase()).filter((a) => a !== '');
  return { kind: 'list', file, code, attrs };
}

/** Reads one string of a rule's "domain" (or "domains") array. */
export function parseDomainEntry(entry: string): DomainEntry {
  if (entry.startsWith('geosite:')) {
    const list = entry.slice(8);
    if (list === '') throw new EntryError(`empty list name in "${entry}"`);
    return siteList(GEOSITE_FILE, list, entry);
  }
  let ext = 0;
  if (entry.startsWith('ext:')) ext = 4;
  if (entry.startsWith('ext-domain:')) ext = 11;
  if (ext > 0) {
    const [file, selector] = extParts(entry.slice(ext), entry);
    return siteList(file, selector, entry);
  }
  const rule = (type: DomainType, value: string, name: string): DomainEntry => {
    if (value === '') throw new EntryError(`empty ${name} in "${entry}"`);
    return { kind: 'rule', type, value };
  };
  if (entry.startsWith('regexp:')) return rule(DomainType.Regex, entry.slice(7), 'regexp');
  if (entry.startsWith('domain:')) return rule(DomainType.RootDomain, entry.slice(7), 'domain');
  if (entry.startsWith('full:')) return rule(DomainType.Full, entry.slice(5), 'full domain');
  if (entry.startsWith('keyword:')) return rule(DomainType.Plain, entry.slice(8), 'keyword');
  if (entry.startsWith('dotless:')) {
    const sub = entry.slice(8);
    if (sub.includes('.')) throw new EntryError(`the text of a dotless rule may not hold a dot ("${entry}")`);
    return { kind: 'rule', type: DomainType.Regex, value: sub === '' ? '^[^.]*$' : `^[^.]*${sub}[^.]*$` };
  }
  // No prefix: a substring, even the empty one (which matches every name).
  return { kind: 'rule', type: DomainType.Plain, value: entry };
}

const isAlphaNum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * An address as v2ray's net.ParseAddress reads it: brackets dropped, spaces trimmed when the text
 * starts or ends with something other than a letter or digit, then Go's net.ParseIP. IPv4-mapped
 * IPv6 (`::ffff:1.2.3.4`) is an IPv4 address. Undefined when it is not an address (a domain).
 */
export function parseRouteAddress(
  text: string,
): { v6: false; ip: number } | { v6: true; ip: bigint } | undefined {
  let addr = text;
  if (addr.length > 1 && addr.startsWith('[') && addr.endsWith(']')) addr = addr.slice(1, -1);
  if (addr.length > 0 && (!isAlphaNum(addr.charCodeAt(0)) || !isAlphaNum(addr.charCodeAt(addr.length - 1))))
    addr = addr.trim();
  // Go decides the family by the first '.' or ':' in the text.
  const dot = addr.indexOf('.');
  const colon = addr.indexOf(':');
  if (colon === -1 || (dot !== -1 && dot < colon)) {
    const v4 = parseIPv4(addr);
    return v4 < 0 ? undefined : { v6: false, ip: v4 };
  }
  const v6 = parseIPv6(addr);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { v6: false, ip: Number(v6 & 0xffffffffn) };
  return { v6: true, ip: v6 };
}

/** `addr` or `addr/bits` as v2ray's ParseIP reads it (an empty mask after the slash is the full one). */
export function parseRouteCidr(entry: string): RouteCidr {
  const slash = entry.indexOf('/');
  const mask = slash === -1 ? '' : entry.slice(slash + 1);
  const address = parseRouteAddress(slash === -1 ? entry : entry.slice(0, slash));
  if (!address) throw new EntryError(`"${entry}" is not an IP address or network`);
  const max = address.v6 ? 128 : 32;
  let prefix = max;
  if (mask !== '') {
    if (!/^[0-9]+$/.test(mask) || Number(mask) > 0xffffffff)
      throw new EntryError(`invalid network mask "${mask}" in "${entry}"`);
    prefix = Number(mask);
    if (prefix > max)
      throw new EntryError(`network mask /${prefix} is too long for "${entry}" (at most ${max})`);
  }
  return address.v6 ? { v6: true, ip: address.ip, prefix } : { v6: false, ip: address.ip, prefix };
}

/** Reads one string of a rule's "ip" array. */
export function parseIpEntry(entry: string): IpEntry {
  if (entry.startsWith('geoip:')) {
    let code = entry.slice(6);
    const inverse = code.startsWith('!');
    if (inverse) code = code.slice(1);
    if (code === '') throw new EntryError(`empty country code in "${entry}"`);
    return { kind: 'list', file: GEOIP_FILE, code, inverse, key: code.toUpperCase() };
  }
  let ext = 0;
  if (entry.startsWith('ext:')) ext = 4;
  if (entry.startsWith('ext-ip:')) ext = 7;
  if (ext > 0) {
    const [file, code] = extParts(entry.slice(ext), entry);
    if (file === '' || code === '') throw new EntryError(`empty file name or code in "${entry}"`);
    return { kind: 'list', file, code, inverse: false, key: `${file}_${code}`.toUpperCase() };
  }
  return { kind: 'cidr', cidr: parseRouteCidr(entry) };
}
