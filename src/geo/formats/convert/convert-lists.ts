// The conversion itself, pure: selected lists in, the bytes of each output file out, with an
// account per list of what the target format could not hold. A .dat takes every list into one
// file; every other format takes one list a file, named after its selector.
import { GeoError } from '../../errors.js';
import { encodeGeoIpList } from '../../ip/ip-encoder.js';
import type { IpList, SiteList } from '../../model.js';
import { encodeGeoSiteList } from '../../site/site-encoder.js';
import { writeMrs } from '../mihomo/mrs-writer.js';
import { writeProviderText } from '../mihomo/write-provider-text.js';
import type { RuleSetVersion } from '../singbox/rule-set-rule.js';
import { writeRuleSetSource } from '../singbox/source-json-writer.js';
import { writeSrs } from '../singbox/srs-writer.js';
import { writeAdGuard } from './adguard-writer.js';
import type { AnyList } from './any-list.js';
import { type ConvertFormat, FORMATS, type ListKind } from './convert-format.js';
import { type DnsmasqOptions, writeDnsmasq } from './dnsmasq-writer.js';
import { ipHolding } from './ip-holding.js';
import type { ListAccount } from './list-account.js';
import { type NftablesOptions, writeNftables } from './nftables-writer.js';
import type { SelectedList } from './select-lists.js';
import { siteHolding } from './site-holding.js';
import { writeTextList } from './text-list-writer.js';

/** Options of convertLists. */
export interface ConvertOptions {
  readonly to: ConvertFormat;
  /** sing-box rule-set version for srs and json (default 2). */
  readonly version?: RuleSetVersion | undefined;
  readonly dnsmasq?: DnsmasqOptions | undefined;
  readonly nftables?: NftablesOptions | undefined;
  /** Called after each list. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** One output file: its name (`<stem><ext>`; for a .dat, '') and its bytes. */
export interface ConvertedFile {
  readonly fileName: string;
  readonly code: string;
  readonly bytes: Uint8Array;
}

/** What a conversion made: the files, and an account per list. */
export interface ConvertResult {
  readonly files: readonly ConvertedFile[];
  readonly accounts: readonly ListAccount[];
}

const encoder = new TextEncoder();
const SAFE_STEM = /^[a-z0-9!@_+-][a-z0-9!@._+-]*$/;

/** Converts the lists to `options.to`; a list the format cannot take is refused naming its file and code. */
export function convertLists(lists: readonly SelectedList[], options: ConvertOptions): ConvertResult {
  const { to } = options;
  const format = FORMATS[to];
  const accounts: ListAccount[] = [];
  const files: ConvertedFile[] = [];
  lists.forEach((selected, i) => {
    const { item, source } = selected;
    if (!format.kinds.includes(item.kind)) {
      throw new GeoError(
        'export_unsupported',
        `${source}: list ${item.list.code} is ${kindName(item.kind)}; ${format.title} holds ${format.kinds.map((k) => (k === 'ip' ? 'IP' : k)).join(' and ')} lists only`,
      );
    }
    const holding = inSource(source, () =>
      item.kind === 'site' ? siteHolding(item.list, to) : ipHolding(item.list, to),
    );
    const rules = item.kind === 'site' ? item.list.rules.length : item.list.cidrs.length;
    // mihomo cannot load an empty .mrs: a list left with nothing gets no file (and says so).
    const file = format.multi || to !== 'mrs' || holding.written > 0;
    accounts.push({ source, code: item.list.code, kind: item.kind, rules, ...holding, file });
    if (!format.multi && file) {
      const bytes = inSource(source, () => writeOne(item, options));
      files.push({ fileName: fileName(selected, to), code: item.list.code, bytes });
    }
    options.onProgress?.(i + 1, lists.length);
  });
  if (format.multi) files.push({ fileName: '', code: '', bytes: writeDat(lists) });
  return { files, accounts };
}

/** The file name a list takes in an output directory: its stem and the format's extension. */
function fileName(selected: SelectedList, to: ConvertFormat): string {
  if (!SAFE_STEM.test(selected.stem)) {
    throw new GeoError(
      'export_unsupported',
      `${selected.source}: list ${JSON.stringify(selected.item.list.code)} cannot name a file (allowed: a-z, 0-9, "!", "@", ".", "_", "+", "-"; not a leading ".")`,
    );
  }
  return `${selected.stem}${FORMATS[to].ext[selected.item.kind]}`;
}

function writeOne(item: AnyList, options: ConvertOptions): Uint8Array {
  const version = options.version ?? 2;
  switch (options.to) {
    case 'srs':
      return writeSrs(item.list, { version });
    case 'json':
      return encoder.encode(writeRuleSetSource(item.list, { version }));
    case 'mrs':
      return writeMrs(item.list);
    case 'yaml':
      return encoder.encode(writeProviderText(item.list, 'yaml'));
    case 'list':
      return encoder.encode(writeProviderText(item.list, 'text'));
    case 'text':
      return encoder.encode(writeTextList(item));
    case 'adguard':
      if (item.kind === 'site') return encoder.encode(writeAdGuard(item.list));
      break;
    case 'dnsmasq':
      if (item.kind === 'site') return encoder.encode(writeDnsmasq(item.list, options.dnsmasq));
      break;
    case 'nftables':
      if (item.kind === 'ip') return encoder.encode(writeNftables(item.list, options.nftables));
      break;
    case 'dat':
      break;
  }
  throw new GeoError('usage', `${options.to} cannot take ${kindName(item.kind)} here`);
}

function kindName(kind: ListKind): string {
  return kind === 'site' ? 'a site list' : 'an IP list';
}

/** One .dat of every list: one kind, each code once. */
function writeDat(lists: readonly SelectedList[]): Uint8Array {
  const sources = new Map<string, string>();
  for (const { item, source } of lists) {
    const code = item.list.code.toUpperCase();
    const earlier = sources.get(code);
    if (earlier !== undefined) {
      throw new GeoError(
        'usage',
        `list ${code} comes twice (${earlier} and ${source}); a .dat holds each code once (--code renames a one-list input)`,
      );
    }
    sources.set(code, source);
  }
  const first = lists[0];
  if (!first) throw new GeoError('usage', 'no lists to write');
  const site: SiteList[] = [];
  const ip: IpList[] = [];
  for (const { item, source } of lists) {
    if (item.kind !== first.item.kind) {
      throw new GeoError(
        'export_unsupported',
        `${source}: list ${item.list.code} is ${kindName(item.kind)} but ${first.source}: ${first.item.list.code} is ${kindName(first.item.kind)}; one .dat holds one kind`,
      );
    }
    if (item.kind === 'site') site.push(item.list);
    else ip.push(item.list);
  }
  return first.item.kind === 'ip' ? encodeGeoIpList(ip) : encodeGeoSiteList(site);
}

/** Runs fn; a GeoError from it gets the input file's name in front. */
function inSource<T>(source: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GeoError && !err.message.startsWith(source)) {
      throw new GeoError(err.code, `${source}: ${err.message}`);
    }
    throw err;
  }
}
