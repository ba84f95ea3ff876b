// The shapes the mihomo rule-provider readers and writers share: a provider's behavior, its form
// on disk, and the one list it holds (a site list for `domain`, an IP list for `ipcidr`).
import type { IpList, SiteList } from '../../model.js';

/** A rule-provider behavior branchgate reads and writes (mihomo's `classical` is not one). */
export type ProviderBehavior = 'domain' | 'ipcidr';

/** A rule-provider file form: one entry a line, a YAML `payload:` list, or binary .mrs. */
export type ProviderForm = 'text' | 'yaml' | 'mrs';

/** What a provider file held: a site list (behavior domain) or an IP list (behavior ipcidr). */
export type ProviderList =
  | { readonly kind: 'site'; readonly form: ProviderForm; readonly list: SiteList }
  | { readonly kind: 'ip'; readonly form: ProviderForm; readonly list: IpList };

/** The upper-case list code a provider file stands for by default: its base name, no extension. */
export function codeFromName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).toUpperCase();
}

/** True when the list is an IP list. */
export function isIpList(list: SiteList | IpList): list is IpList {
  return 'cidrs' in list;
}
