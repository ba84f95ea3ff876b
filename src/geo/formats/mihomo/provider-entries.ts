// Turns the entries of a text or YAML provider into the list they stand for: domain entries into
// site rules (see domain-entry.ts), ipcidr entries into CIDRs (`addr/prefix`, strict as Go's
// netip.ParsePrefix, host bits cleared). A bad entry is an error naming the file and line.
import { GeoError } from '../../errors.js';
import { cidrBytes, parseCidr } from '../../ip/ip-address.js';
import type { Cidr, SiteRule } from '../../model.js';
import { entryRule, parseDomainEntry } from './domain-entry.js';
import type { ProviderBehavior, ProviderForm, ProviderList } from './provider-list.js';
import type { ProviderLine } from './provider-text.js';

/** Parses `addr/prefix` (IPv4 or IPv6, no zone, no leading zeros in the prefix). */
export function parseIpEntry(text: string): Cidr | { readonly problem: string } {
  const slash = text.indexOf('/');
  if (slash === -1) return { problem: 'an ipcidr entry needs a /prefix' };
  if (!/^(?:0|[1-9][0-9]{0,2})$/.test(text.slice(slash + 1))) return { problem: 'bad prefix length' };
  const parsed = parseCidr(text);
  if (!parsed) return { problem: 'not an IPv4 or IPv6 network' };
  return cidrBytes(parsed);
}

/**
 * The list a provider's entries stand for. Without a behavior, the first entry tells: one with a
 * `/` is ipcidr, any other domain; a file without entries then cannot tell and is refused
 * (naming its last line, `lineCount`).
 */
export function entriesToList(
  lines: readonly ProviderLine[],
  name: string,
  lineCount: number,
  form: ProviderForm,
  code: string,
  behavior?: ProviderBehavior,
): ProviderList {
  const first = lines[0];
  let kind: ProviderBehavior;
  if (behavior !== undefined) kind = behavior;
  else if (first) kind = first.text.includes('/') ? 'ipcidr' : 'domain';
  else {
    throw new GeoError(
      'source_empty',
      `${name}:${lineCount}: end of file and no entries, so no telling domain from ipcidr; give the behavior`,
    );
  }
  const fail = (l: ProviderLine, problem: string): never => {
    const hint = behavior === undefined ? ` (read as ${kind}, told from line ${first?.line})` : '';
    throw new GeoError('source_syntax', `${name}:${l.line}: ${problem}${hint}: ${JSON.stringify(l.text)}`);
  };
  if (kind === 'ipcidr') {
    const cidrs: Cidr[] = [];
    for (const l of lines) {
      const c = parseIpEntry(l.text);
      if ('problem' in c) fail(l, c.problem);
      else cidrs.push(c);
    }
    return { kind: 'ip', form, list: { code, cidrs, inverseMatch: false } };
  }
  const rules: SiteRule[] = [];
  for (const l of lines) {
    const e = parseDomainEntry(l.text);
    if ('problem' in e) fail(l, e.problem);
    else rules.push(entryRule(e));
  }
  return { kind: 'site', form, list: { code, rules } };
}
