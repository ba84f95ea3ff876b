// The optional filters of GET /pbx/cdr/data and /pbx/cdr/export (the console's call list): a date
// range, source, destination, disposition, text in the caller id, and the order. Without any of
// them the pull API answers exactly as the seed contract says (a db_id range scan).
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../store/index.js';
import { createTimeParser } from './ingest/asterisk-time.js';

/** A checked filter. Times are unix seconds; text fields match exactly, caller_id as a substring. */
export interface CdrFilter {
  from: number | null;
  /** Exclusive upper bound. */
  to: number | null;
  source: string | null;
  destination: string | null;
  disposition: string | null;
  callerId: string | null;
  order: 'asc' | 'desc';
}

/** The query parameters that make a filtered query. */
export const FILTER_PARAMS = [
  'from',
  'to',
  'source',
  'destination',
  'disposition',
  'caller_id',
  'order',
] as const;

const DATE = /^\d{4}-\d\d-\d\d$/;

/** Whether any filter parameter is present. */
export function hasFilter(query: Record<string, unknown>): boolean {
  return FILTER_PARAMS.some((p) => query[p] !== undefined);
}

/**
 * Reads the filter parameters: `from`/`to` as `YYYY-MM-DD` (a whole day; `to` includes it),
 * `YYYY-MM-DD HH:MM:SS` in the exchange's zone, or unix seconds; the rest as text.
 */
export function parseCdrFilter(
  query: Record<string, unknown>,
  timeZone: string,
): { ok: true; filter: CdrFilter } | { ok: false; message: string } {
  const parseTime = createTimeParser(timeZone);
  const text = (name: string): string | null | { error: string } => {
    const v = query[name];
    if (v === undefined || v === '') return null;
    if (typeof v !== 'string') return { error: `${name}: give it once` };
    if (v.length > 200) return { error: `${name}: at most 200 characters` };
    return v;
  };
  const values: Record<string, string | null> = {};
  for (const name of FILTER_PARAMS) {
    const v = text(name);
    if (v !== null && typeof v === 'object') return { ok: false, message: v.error };
    values[name] = v;
  }
  const time = (name: 'from' | 'to'): number | null | string => {
    const v = values[name];
    if (v === null || v === undefined) return null;
    if (DATE.test(v)) {
      const midnight = parseTime(`${v} 00:00:00`);
      if (midnight === null) return `${name}: "${v}" is not a date`;
      // `to` names the last day included: the bound is the next midnight.
      return name === 'to' ? (parseTime(`${nextDay(v)} 00:00:00`) ?? midnight + 86_400) : midnight;
    }
    const t = parseTime(v);
    return t === null
      ? `${name}: "${v}" is not a date (YYYY-MM-DD), a time (YYYY-MM-DD HH:MM:SS) or unix seconds`
      : name === 'to'
        ? t + 1
        : t;
  };
  const from = time('from');
  if (typeof from === 'string') return { ok: false, message: from };
  const to = time('to');
  if (typeof to === 'string') return { ok: false, message: to };
  if (from !== null && to !== null && to <= from)
    return { ok: false, message: 'to: must not be before from' };
  const order = values.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc')
    return { ok: false, message: `order: "${order}" is not asc or desc` };
  return {
    ok: true,
    filter: {
      from,
      to,
      source: values.source ?? null,
      destination: values.destination ?? null,
      disposition: values.disposition?.toUpperCase() ?? null,
      callerId: values.caller_id ?? null,
      order,
    },
  };
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The filter's conditions on a query over cdr. */
export function whereFilter<O>(
  q: SelectQueryBuilder<Database, 'cdr', O>,
  f: CdrFilter,
): SelectQueryBuilder<Database, 'cdr', O> {
  let out = q;
  if (f.from !== null) out = out.where('start_ts', '>=', f.from);
  if (f.to !== null) out = out.where('start_ts', '<', f.to);
  if (f.source !== null) out = out.where('src', '=', f.source);
  if (f.destination !== null) out = out.where('dst', '=', f.destination);
  if (f.disposition !== null) out = out.where('disposition', '=', f.disposition);
  if (f.callerId !== null) {
    const pattern = `%${f.callerId.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    out = out.where(sql<boolean>`lower(clid) like ${pattern} escape '\\'`);
  }
  return out;
}
