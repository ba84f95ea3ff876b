// What a format keeps of a site list, counted without writing it: the number of rules the file
// reads back as and what was lost by kind. Each case restates the format's documented rules
// (docs/geo.md, "Converting between formats"); the tests check them against what reads back.
import { DomainType, type SiteList, type SiteRule } from '../../model.js';
import { heldEntries } from '../mihomo/held-entries.js';
import { adGuardHolds } from './adguard-writer.js';
import type { ConvertFormat } from './convert-format.js';
import { type LossCounts, lossCounts } from './list-account.js';

/** How many rules a format holds of a site list, and what it loses. */
export interface Holding {
  readonly written: number;
  readonly lost: LossCounts;
}

/** What `to` keeps of a site list (dat and text keep everything). */
export function siteHolding(list: SiteList, to: ConvertFormat): Holding {
  const rules = list.rules;
  const zero = { keyword: 0, regexp: 0, attributes: 0, duplicate: 0, merged: 0, widened: 0 };
  switch (to) {
    case 'dat':
    case 'text':
      return { written: rules.length, lost: {} };
    case 'srs':
    case 'json':
      return ruleSetHolding(rules, to === 'srs');
    case 'mrs':
    case 'yaml':
    case 'list': {
      const held = heldEntries(list);
      const counts = { ...zero, keyword: held.keyword, regexp: held.regexp, attributes: held.attributes };
      if (to !== 'mrs') return { written: held.entries.length, lost: lossCounts(counts) };
      // The set keeps one rule per name: repeats of an entry are duplicates; `x` with `+.x` or
      // `.x` (one name's several forms) fold into one rule.
      const forms = new Map<string, Set<string>>();
      for (const e of held.entries) {
        const seen = forms.get(e.domain) ?? new Set<string>();
        seen.add(e.form);
        forms.set(e.domain, seen);
      }
      let distinct = 0;
      for (const f of forms.values()) distinct += f.size;
      counts.duplicate = held.entries.length - distinct;
      counts.merged = distinct - forms.size;
      return { written: forms.size, lost: lossCounts(counts) };
    }
    case 'adguard':
    case 'dnsmasq': {
      const counts = { ...zero };
      let written = 0;
      for (const rule of rules) {
        const held = to === 'adguard' ? adGuardHolds(rule) : isNamed(rule);
        if (!held) {
          if (rule.type === DomainType.Plain) counts.keyword++;
          else counts.regexp++;
          continue;
        }
        written++;
        if (rule.attributes.length > 0) counts.attributes++;
        if (to === 'dnsmasq' && rule.type === DomainType.Full) counts.widened++;
      }
      return { written, lost: lossCounts(counts) };
    }
    case 'nftables':
      return { written: 0, lost: {} };
  }
}

function isNamed(rule: SiteRule): boolean {
  return rule.type === DomainType.RootDomain || rule.type === DomainType.Full;
}

/**
 * A sing-box rule: attributes dropped, each value once per type; the binary form also drops a full
 * name that is a domain rule of the list (sing's matcher keeps one key per name).
 */
function ruleSetHolding(rules: readonly SiteRule[], binary: boolean): Holding {
  const seen = new Set<string>();
  const roots = new Set<string>();
  let attributes = 0;
  for (const rule of rules) {
    if (rule.attributes.length > 0) attributes++;
    seen.add(`${rule.type}:${rule.value}`);
    if (rule.type === DomainType.RootDomain) roots.add(rule.value);
  }
  let merged = 0;
  if (binary) {
    for (const key of seen) {
      if (key.startsWith(`${DomainType.Full}:`) && roots.has(key.slice(2))) merged++;
    }
  }
  const lost = lossCounts({
    keyword: 0,
    regexp: 0,
    attributes,
    duplicate: rules.length - seen.size,
    merged,
    widened: 0,
  });
  return { written: seen.size - merged, lost };
}
