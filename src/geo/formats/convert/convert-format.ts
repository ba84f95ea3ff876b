// The formats `geo convert` reads and writes, in one table: which kinds of list each holds,
// whether a file holds one list or many, whether it is binary, and its file extensions.
// Detection, the conversion, the CLI and docs/geo.md all follow this table.

/** A format `geo convert` knows. */
export type ConvertFormat =
  | 'dat'
  | 'srs'
  | 'json'
  | 'mrs'
  | 'yaml'
  | 'list'
  | 'text'
  | 'adguard'
  | 'dnsmasq'
  | 'nftables';

/** A kind of list: domain rules (geosite) or IP networks (geoip). */
export type ListKind = 'site' | 'ip';

/** What the table says of one format. */
export interface FormatInfo {
  /** A name for messages. */
  readonly title: string;
  /** The kinds of list it holds. */
  readonly kinds: readonly ListKind[];
  /** True when branchgate reads it back (false: written for another tool only). */
  readonly readable: boolean;
  /** True for binary files (never written to a terminal). */
  readonly binary: boolean;
  /** True when one file holds many lists (.dat); every other format holds one. */
  readonly multi: boolean;
  /** The extension written for a site list and for an IP list ('' for none). */
  readonly ext: Readonly<Record<ListKind, string>>;
}

/** Every format, in the order the docs list them. */
export const FORMATS: Readonly<Record<ConvertFormat, FormatInfo>> = {
  dat: info('v2ray .dat', ['site', 'ip'], true, true, true, '.dat'),
  srs: info('sing-box .srs', ['site', 'ip'], true, true, false, '.srs'),
  json: info('sing-box source JSON', ['site', 'ip'], true, false, false, '.json'),
  mrs: info('mihomo .mrs', ['site', 'ip'], true, true, false, '.mrs'),
  yaml: info('mihomo YAML', ['site', 'ip'], true, false, false, '.yaml'),
  list: info('mihomo text', ['site', 'ip'], true, false, false, '.list'),
  text: { ...info('text', ['site', 'ip'], true, false, false, ''), ext: { site: '', ip: '.txt' } },
  adguard: info('AdGuard Home', ['site'], false, false, false, '.txt'),
  dnsmasq: info('dnsmasq', ['site'], false, false, false, '.conf'),
  nftables: info('nftables', ['ip'], false, false, false, '.nft'),
};

/** Every format name, in table order. */
export const CONVERT_FORMATS = Object.keys(FORMATS) as readonly ConvertFormat[];

/** True when `name` is a format name. */
export function isConvertFormat(name: string): name is ConvertFormat {
  return Object.hasOwn(FORMATS, name);
}

function info(
  title: string,
  kinds: readonly ListKind[],
  readable: boolean,
  binary: boolean,
  multi: boolean,
  ext: string,
): FormatInfo {
  return { title, kinds, readable, binary, multi, ext: { site: ext, ip: ext } };
}
