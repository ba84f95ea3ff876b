// Tells a file's format from its content, for `geo convert`: the zstd magic (mihomo .mrs), "SRS"
// (sing-box binary), protobuf entries (v2ray .dat), or UTF-8 text: sing-box JSON (`{`), mihomo
// YAML (`payload:`), source-syntax or CIDR lines (`text`) or mihomo entries (`list`).
import { GeoError } from '../../errors.js';
import { parseCidr } from '../../ip/ip-address.js';
import { looksLikeYaml } from '../mihomo/provider-yaml.js';
import type { ConvertFormat } from './convert-format.js';

/** A format `geo convert` reads. */
export type InputFormat = Extract<ConvertFormat, 'dat' | 'srs' | 'json' | 'mrs' | 'yaml' | 'list' | 'text'>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const SOURCE_TYPE = /^(?:domain|full|keyword|regexp|include):/i;
const WRITE_ONLY: readonly [RegExp, string][] = [
  [/^(?:ipset|nftset|server|address)=\//, 'a dnsmasq configuration'],
  [/^(?:\|\||@@|\/.*\/$|!)/, 'AdGuard Home filtering rules'],
  [/^table\s/, 'an nftables ruleset'],
];

/**
 * The format of a file's bytes. A text file of bare names only (no `type:`, `+.` or `.` prefix)
 * reads as source syntax (`text`) when its name has no extension, as domain-list-community names
 * its files, and as mihomo text (`list`) otherwise; an empty file (an empty list) likewise, when
 * its name is one of these. Unknown content is refused naming the file.
 */
export function detectFormat(bytes: Uint8Array, name: string): InputFormat {
  if (bytes.length === 0) return emptyFormat(name, 'empty file');
  const b0 = bytes[0];
  if (b0 === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) return 'mrs';
  if (b0 === 0x4d && bytes[1] === 0x52 && bytes[2] === 0x53 && bytes[3] === 1) return 'mrs';
  if (b0 === 0x53 && bytes[1] === 0x52 && bytes[2] === 0x53) return 'srs';
  const text = asText(bytes);
  if (text !== undefined) return textFormat(text, name);
  // A .dat starts with its first entry's tag: field 1, length-delimited.
  if (b0 === 0x0a) return 'dat';
  throw new GeoError(
    'format_unknown',
    `${name}: unknown format at byte 0 (0x${(b0 ?? 0).toString(16).padStart(2, '0')}): not a geosite/geoip .dat, .srs, .mrs, sing-box JSON, mihomo YAML or a text list`,
  );
}

function asText(bytes: Uint8Array): string | undefined {
  // C0 controls other than tab, line feed, form feed and carriage return, and DEL: not text.
  for (const b of bytes) {
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13) || b === 0x7f) return undefined;
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return text.replace(/^\uFEFF/, '');
}

function textFormat(text: string, name: string): InputFormat {
  if (/^\s*\{/.test(text)) return 'json';
  if (looksLikeYaml(text)) return 'yaml';
  let entries = 0;
  let mihomo = false;
  let firstLine = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('//')) continue;
    if (entries === 0) {
      firstLine = line;
      for (const [pattern, what] of WRITE_ONLY) {
        if (pattern.test(line)) {
          throw new GeoError(
            'format_unknown',
            `${name}: looks like ${what}, which branchgate writes but does not read`,
          );
        }
      }
    }
    entries++;
    if (SOURCE_TYPE.test(line)) return 'text';
    if (line.startsWith('+.') || line.startsWith('.')) mihomo = true;
  }
  if (entries === 0) return emptyFormat(name, 'no entries (only blank or comment lines)');
  const firstEntry = firstLine.replace(/\s*(?:#|\/\/).*$/, '');
  if (parseCidr(firstEntry) !== undefined) return 'text';
  if (mihomo) return 'list';
  return hasExtension(name) ? 'list' : 'text';
}

/**
 * A file without entries is what an empty list is written as in mihomo text (`.list`, `.txt`) or
 * the text format (a domain-list-community file, no extension): an empty site list. Any other
 * empty file is refused.
 */
function emptyFormat(name: string, what: string): InputFormat {
  if (/\.(?:list|txt)$/i.test(name)) return 'list';
  if (!hasExtension(name)) return 'text';
  throw new GeoError('format_unknown', `${name}: ${what}, no format to tell`);
}

function hasExtension(name: string): boolean {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return base.lastIndexOf('.') > 0;
}
