// Reads sing-box's domain matcher keys back into names, as sing's Matcher.Dump does: '\n' + name
// is a domain_suffix; '\r' + '.' + name together with the plain name (version 1's layout, or a
// sing-geosite `domain` + `.domain_suffix` pair) is one domain_suffix; any other '\r' + text key
// matches every name that ends with the text (a domain_suffix with a leading dot); the rest are
// exact names. Keys a branchgate list cannot hold (empty, control characters, not UTF-8) are refused.
import { PREFIX_LABEL, ROOT_LABEL } from './domain-matcher-keys.js';

/** The names of a domain matcher, each group sorted as sing-box sorts (bytewise). */
export interface DumpedDomains {
  /** Exact names (sing-box `domain`). */
  readonly domains: string[];
  /** Names matched with their subdomains (sing-box `domain_suffix` without a leading dot). */
  readonly suffixes: string[];
  /** Texts any name ending with which matches (sing-box `domain_suffix` with a leading dot). */
  readonly endings: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Splits matcher keys (reversed names, as decoded from the succinct set) into names. */
export function dumpDomainMatcher(
  keys: readonly Uint8Array[],
  refuse: (what: string) => never,
): DumpedDomains {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const prefixed: string[] = [];
  for (const key of keys) {
    const name = unreverse(key, refuse);
    const marker = name.charAt(0);
    const rest = marker === PREFIX_LABEL || marker === ROOT_LABEL ? name.slice(1) : name;
    if (name === '') refuse('the domain matcher holds an empty name');
    if (/[\r\n]/.test(rest)) refuse(`domain ${JSON.stringify(rest)} holds a control character`);
    if (marker === ROOT_LABEL) {
      if (rest === '') refuse('the domain matcher holds an empty domain_suffix');
      suffixes.push(rest);
    } else if (marker === PREFIX_LABEL) prefixed.push(rest);
    else exact.add(name);
  }
  const endings: string[] = [];
  for (const text of prefixed) {
    const root = text.slice(1);
    if (text.startsWith('.') && exact.has(root)) {
      exact.delete(root);
      suffixes.push(root);
    } else endings.push(text);
  }
  return {
    domains: [...exact].sort(compareCodePoints),
    suffixes: suffixes.sort(compareCodePoints),
    endings: endings.sort(compareCodePoints),
  };
}

/** A key's name: the key's UTF-8 decoded, its code points reversed. */
function unreverse(key: Uint8Array, refuse: (what: string) => never): string {
  let ascii = true;
  for (const b of key) {
    if (b >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Buffer.from(key).reverse().toString('latin1');
  try {
    return Array.from(utf8.decode(key)).reverse().join('');
  } catch {
    return refuse('a domain in the matcher is not valid UTF-8');
  }
}

/** Orders strings by code point, which is the bytewise order of their UTF-8 (Go's sort.Strings). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
