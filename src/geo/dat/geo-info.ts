// Summaries and differences of .dat files, decoding one entry at a time so memory stays bounded:
// info = kind + per-code counts by rule type; diff = codes added/removed and, per common code,
// the rules added/removed (entries with identical bytes are skipped without decoding).

import { cidrToText, siteRuleToText } from '../formats/list-text.js';
import { ipEntryStats, siteEntryStats } from './entry-stats.js';
import type { GeoDat } from './geo-dat.js';

/** Counts of one list. */
export interface ListInfo {
  readonly code: string;
  readonly count: number;
  /** By rule type (domain/full/keyword/regexp) or address family (ipv4/ipv6). */
  readonly byType: Readonly<Record<string, number>>;
  /** Rules with at least one attribute (site lists). */
  readonly withAttributes?: number;
  /** inverse_match flag (IP lists). */
  readonly inverseMatch?: boolean;
}

/** Summary of a .dat file. */
export interface DatInfo {
  readonly kind: GeoDat['kind'];
  readonly size: number;
  readonly entries: readonly ListInfo[];
  readonly total: number;
  readonly byType: Readonly<Record<string, number>>;
}

/** Counts every list of a file. */
export function datInfo(dat: GeoDat): DatInfo {
  const entries: ListInfo[] = [];
  const byTypeAll: Record<string, number> = {};
  let total = 0;
  for (const entry of dat.entries) {
    const bytes = dat.entryBytes(entry);
    let info: ListInfo;
    if (dat.kind === 'ip') {
      const s = ipEntryStats(bytes, 0, entry.length, entry.offset);
      info = { code: entry.code, count: s.count, byType: s.byType, inverseMatch: s.inverseMatch };
    } else {
      const s = siteEntryStats(bytes, 0, entry.length, entry.offset);
      info = { code: entry.code, count: s.count, byType: s.byType, withAttributes: s.withAttributes };
    }
    const byType = info.byType;
    for (const [k, v] of Object.entries(byType)) byTypeAll[k] = (byTypeAll[k] ?? 0) + v;
    total += info.count;
    entries.push(info);
  }
  return { kind: dat.kind, size: dat.size, entries, total, byType: byTypeAll };
}

/** Differences of one code between two files. */
export interface ListDiff {
  readonly code: string;
  /** `added`/`removed`: the whole list is only in b / only in a; `changed`: in both, rules differ. */
  readonly status: 'added' | 'removed' | 'changed';
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** Compares two files of the same kind, code by code, in code order. */
export function datDiff(a: GeoDat, b: GeoDat): ListDiff[] {
  const lines = (dat: GeoDat, code: string): string[] => {
    const entry = dat.get(code);
    if (dat.kind === 'ip') return dat.readIp(entry).cidrs.map((c) => cidrToText(c.ip, c.prefix));
    return dat.readSite(entry).rules.map(siteRuleToText);
  };
  const codes = new Set([
    ...a.entries.map((e) => e.code.toUpperCase()),
    ...b.entries.map((e) => e.code.toUpperCase()),
  ]);
  const out: ListDiff[] = [];
  for (const code of [...codes].sort()) {
    const ea = a.find(code);
    const eb = b.find(code);
    if (!ea && eb) out.push({ code, status: 'added', added: lines(b, code), removed: [] });
    else if (ea && !eb) out.push({ code, status: 'removed', added: [], removed: lines(a, code) });
    else if (ea && eb) {
      if (Buffer.from(a.entryBytes(ea)).equals(b.entryBytes(eb))) continue;
      const la = lines(a, code);
      const lb = lines(b, code);
      const sa = new Set(la);
      const sb = new Set(lb);
      const added = lb.filter((l) => !sa.has(l));
      const removed = la.filter((l) => !sb.has(l));
      if (added.length > 0 || removed.length > 0) out.push({ code, status: 'changed', added, removed });
    }
  }
  return out;
}
