// Reads a mihomo rule provider of any form, told from the content: the zstd magic (or a name
// ending in .mrs) for .mrs, a `payload:` header for YAML, else text lines.
import { GeoError } from '../../errors.js';
import { readMrs } from './mrs-reader.js';
import { entriesToList } from './provider-entries.js';
import { codeFromName, type ProviderBehavior, type ProviderList } from './provider-list.js';
import { textEntries } from './provider-text.js';
import { looksLikeYaml, yamlEntries } from './provider-yaml.js';
import { isZstd } from './unzstd.js';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * Reads a rule provider of any form (a name ending in .mrs is always read as .mrs). `name` names
 * the file in errors; `hint` is the behavior the caller expects (required to read an empty text
 * or YAML provider); `code` defaults to the file's base name in upper case.
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
