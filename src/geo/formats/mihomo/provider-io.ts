// The entry points for mihomo rule providers: read any form (told from the content: zstd magic
// for .mrs, a `payload:` header for YAML, else text lines) and write the text or YAML form.
import { GeoError } from '../../errors.js';
import { formatCidr } from '../../ip/ip-address.js';
import type { IpList, SiteList } from '../../model.js';
import { entryText } from './domain-entry.js';
import { heldEntries } from './held-entries.js';
import { readMrs } from './mrs-reader.js';
import { entriesToList } from './provider-entries.js';
import { codeFromName, isIpList, type ProviderBehavior, type ProviderList } from './provider-list.js';
import { plainText, textEntries } from './provider-text.js';
import { looksLikeYaml, yamlEntries, yamlText } from './provider-yaml.js';
import { isZstd } from './zstd-unframe.js';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * Reads a rule provider of any form (a name ending in .mrs is always read as .mrs). `name` names
 * the file in errors; `hint` is the behavior the
 * caller expects (required to read an empty text or YAML provider); `code` defaults to the file's
 * base name in upper case.
 */
export function readProvider(
  bytes: Uint8Array,
  name: string,
  hint?: ProviderBehavior,
  code = codeFromName(name),
): ProviderList {
  if (isZstd(bytes) || /\.mrs$/i.test(name)) return readMrs(bytes, name, hint, code);
  if (bytes.length >= 4 && bytes[0] === 0x4d && bytes[1] === 0x52 && bytes[2] === 0x53 && bytes[3] === 1) {
    throw new GeoError('mrs_corrupt', `${name} byte 0: an .mrs payload that is not zstd-compressed`);
  }
  const text = utf8.decode(bytes);
  const bad = text.indexOf('\uFFFD');
  if (bad !== -1) {
    const line = text.slice(0, bad).split('\n').length;
    throw new GeoError('source_syntax', `${name}:${line}: not valid UTF-8 text`);
  }
  const lineCount = text.split('\n').length;
  if (looksLikeYaml(text)) return entriesToList(yamlEntries(text, name), name, lineCount, 'yaml', code, hint);
  return entriesToList(textEntries(text), name, lineCount, 'text', code, hint);
}

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
