// Writes a site or IP list as a mihomo text provider (one entry a line) or YAML provider
// (`payload:` list). Site lists keep what heldEntries keeps; an inverted IP list is refused.
import { GeoError } from '../../errors.js';
import { formatCidr } from '../../ip/ip-address.js';
import type { IpList, SiteList } from '../../model.js';
import { entryText } from './domain-entry.js';
import { heldEntries } from './held-entries.js';
import { isIpList } from './provider-list.js';
import { plainText } from './provider-text.js';
import { yamlText } from './provider-yaml.js';

/**
 * A list as a text (one entry a line) or YAML (`payload:`) provider. Site lists keep their full
 * and domain rules (keywords, regexps and attributes are dropped, see heldEntries).
 */
export function writeProviderText(list: SiteList | IpList, form: 'text' | 'yaml'): string {
  let entries: string[];
  if (isIpList(list)) {
    if (list.inverseMatch) {
      throw new GeoError(
        'export_unsupported',
        `list ${list.code} has inverse_match, which a mihomo provider cannot hold`,
      );
    }
    entries = list.cidrs.map((c) => formatCidr(c.ip, c.prefix));
  } else {
    entries = heldEntries(list).entries.map(entryText);
  }
  return form === 'yaml' ? yamlText(entries) : plainText(entries);
}
