// Writes a site list as AdGuard Home DNS filtering rules (its urlfilter syntax): `||name^` a
// domain and its subdomains, `|name^` the name alone, `*keyword*` a substring, `/regexp/` a regexp.
// Rules AdGuard would refuse or read otherwise are left out (adGuardHolds says which).
import { DomainType, type SiteList, type SiteRule } from '../../model.js';

/**
 * True when a rule has an AdGuard form: not a keyword under 3 characters (too wide, refused) or
 * holding `*|^$`, not a regexp with `replace=` (read as a modifier). AdGuard matches regexps
 * (Go RE2, as v2ray's) without regard to case.
 */
export function adGuardHolds(rule: SiteRule): boolean {
  if (rule.type === DomainType.RootDomain || rule.type === DomainType.Full) return true;
  if (rule.type === DomainType.Plain) return rule.value.length >= 3 && !/[*|^$]/.test(rule.value);
  return rule.type === DomainType.Regex && !rule.value.includes('replace=');
}

/** The AdGuard Home rules of a site list, after a `!` comment line naming it. */
export function writeAdGuard(list: SiteList): string {
  let out = `! ${list.code}: written by branchgate geo export --format adguard\n`;
  for (const rule of list.rules) {
    if (!adGuardHolds(rule)) continue;
    if (rule.type === DomainType.RootDomain) out += `||${rule.value}^\n`;
    else if (rule.type === DomainType.Full) out += `|${rule.value}^\n`;
    else if (rule.type === DomainType.Plain) out += `*${rule.value}*\n`;
    else out += `/${rule.value}/\n`;
  }
  return out;
}
