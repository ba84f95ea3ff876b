// What of a site list a mihomo `domain` provider can hold: its full and domain rules (and
// subdomain-only regexps) as entries; keywords and other regexps are dropped and counted, and so
// are the attributes of the rules kept. A value no entry can carry is an export_unsupported error.
import { GeoError } from '../../errors.js';
import type { SiteList } from '../../model.js';
import { siteRuleToText } from '../list-text.js';
import { type DomainEntry, ruleEntry } from './domain-entry.js';

/** The entries of a site list, in rule order, and what could not be held. */
export interface HeldEntries {
  readonly entries: readonly DomainEntry[];
  /** Keyword rules dropped. */
  readonly keyword: number;
  /** Regexp rules dropped. */
  readonly regexp: number;
  /** Rules kept whose attributes (`@ads`) were dropped. */
  readonly attributes: number;
}

/** Splits a site list into provider entries and counts of what a provider cannot hold. */
export function heldEntries(list: SiteList): HeldEntries {
  const entries: DomainEntry[] = [];
  let keyword = 0;
  let regexp = 0;
  let attributes = 0;
  list.rules.forEach((rule, i) => {
    const held = ruleEntry(rule);
    if ('dropped' in held) {
      if (held.dropped === 'keyword') keyword++;
      else regexp++;
      return;
    }
    if ('problem' in held) {
      throw new GeoError(
        'export_unsupported',
        `list ${list.code} rule ${i + 1} (${siteRuleToText(rule)}) cannot be a mihomo entry: ${held.problem}`,
      );
    }
    if (rule.attributes.length > 0) attributes++;
    entries.push(held);
  });
  return { entries, keyword, regexp, attributes };
}
