// Exports one list of an opened .dat for another tool: plain text (source syntax or CIDRs),
// dnsmasq lines or AdGuard Home rules for a site list, an nftables set file for an IP list.
// The library form of `geo export`; the writers live in convert/ (see convertLists for every format).

import type { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { writeAdGuard } from './convert/adguard-writer.js';
import { type DnsmasqOptions, writeDnsmasq } from './convert/dnsmasq-writer.js';
import { type NftablesOptions, writeNftables } from './convert/nftables-writer.js';
import { siteHolding } from './convert/site-holding.js';
import { writeTextList } from './convert/text-list-writer.js';
import { parseListSelector, selectRules } from './list-text.js';

/** Export formats of exportList. */
export type ExportFormat = 'text' | 'dnsmasq' | 'nftables' | 'adguard';

/** Options of exportList: the list, the format, and the dnsmasq / nftables settings. */
export interface ExportOptions extends DnsmasqOptions, NftablesOptions {
  /** `code` or `code@attr`. */
  readonly code: string;
  readonly to: ExportFormat;
}

/** The exported text and how many rules could not be expressed. */
export interface ExportResult {
  readonly text: string;
  readonly written: number;
  readonly skipped: number;
}

/** Exports one list of an opened .dat file. */
export function exportList(dat: GeoDat, options: ExportOptions): ExportResult {
  const selector = parseListSelector(options.code);
  const entry = dat.get(selector.code);
  if (dat.kind === 'ip') {
    if (selector.attrs.length > 0) throw new GeoError('usage', 'IP lists have no attributes');
    const list = dat.readIp(entry);
    if (options.to === 'text') {
      return { text: writeTextList({ kind: 'ip', list }), written: list.cidrs.length, skipped: 0 };
    }
    if (options.to === 'nftables') {
      return { text: writeNftables(list, options), written: list.cidrs.length, skipped: 0 };
    }
    throw new GeoError(
      'export_unsupported',
      `${options.to} export needs a site list; ${dat.name} holds IP lists`,
    );
  }
  const read = dat.readSite(entry);
  const list = { ...read, rules: selectRules(read, selector) };
  if (options.to === 'nftables') {
    throw new GeoError(
      'export_unsupported',
      `nftables export needs an IP list; ${dat.name} holds site lists`,
    );
  }
  const held = siteHolding(list, options.to);
  const text =
    options.to === 'text'
      ? writeTextList({ kind: 'site', list })
      : options.to === 'adguard'
        ? writeAdGuard(list)
        : writeDnsmasq(list, options);
  return { text, written: held.written, skipped: (held.lost.keyword ?? 0) + (held.lost.regexp ?? 0) };
}
