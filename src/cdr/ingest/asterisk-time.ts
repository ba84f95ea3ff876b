// Asterisk CDR times to unix seconds. cdr_csv writes "YYYY-MM-DD HH:MM:SS" in GMT (usegmtime=yes) or
// in the PBX's local time; cdr_custom may also write epoch seconds (${CDR(start,u)}). Wall times are
// read in an IANA zone with Intl only (no time-zone data of our own).
import { wallClockFormat, zoneOffsetMs } from '../../shared/wall-time.js';
import { CdrImportError } from './errors.js';

/** Turns one time field into unix seconds, or null when the text is not a time. */
export type TimeParser = (text: string) => number | null;

const WALL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?$/;
const EPOCH = /^\d{1,12}(?:\.\d+)?$/;
const DAY_MS = 86_400_000;

/**
 * A parser for times written in `zone` (IANA name, e.g. "Europe/Berlin"; "UTC" for usegmtime).
 * DST: a wall time that occurs twice (clocks go back) is taken as the earlier instant; one that
 * never occurs (clocks go forward) is moved forward by the gap, as Temporal's "compatible" does.
 */
export function createTimeParser(zone: string): TimeParser {
  let format: Intl.DateTimeFormat;
  try {
    format = wallClockFormat(zone);
  } catch {
    throw new CdrImportError(
      'bad_timezone',
      `--time-zone: ${JSON.stringify(zone)} is not an IANA time zone name`,
    );
  }
  const utc = format.resolvedOptions().timeZone === 'UTC';
  const offsetAt = (ms: number): number => zoneOffsetMs(format, ms);
  // Offsets are cached per wall-clock hour, except hours next to a transition (computed each time).
  const hourCache = new Map<string, number>();
  const toInstant = (wallMs: number, hourKey: string): number => {
    const cached = hourCache.get(hourKey);
    if (cached !== undefined) return wallMs - cached;
    const before = offsetAt(wallMs - DAY_MS);
    const after = offsetAt(wallMs + DAY_MS);
    if (before === after) {
      if (hourCache.size > 100_000) hourCache.clear();
      hourCache.set(hourKey, before);
      return wallMs - before;
    }
    const valid = [before, after].filter((o) => offsetAt(wallMs - o) === o);
    if (valid.length === 0) return wallMs - before; // in the gap: move forward by the gap
    return wallMs - Math.max(...valid); // repeated hour: the earlier instant has the larger offset
  };
  // Hot path: "YYYY-MM-DD HH:MM:SS" read by char codes, the day's UTC midnight cached.
  const dayCache = new Map<string, number>();
  const dayMs = (text: string): number | null => {
    const key = text.slice(0, 10);
    let ms = dayCache.get(key);
    if (ms === undefined) {
      const y = Number(key.slice(0, 4));
      const mo = Number(key.slice(5, 7));
      const d = Number(key.slice(8, 10));
      ms = Date.UTC(y, mo - 1, d);
      const date = new Date(ms);
      if (mo < 1 || mo > 12 || date.getUTCDate() !== d || date.getUTCMonth() !== mo - 1) ms = Number.NaN;
      if (dayCache.size > 10_000) dayCache.clear();
      dayCache.set(key, ms);
    }
    return Number.isNaN(ms) ? null : ms;
  };
  return (text) => {
    if (text.length >= 19 && WALL.test(text)) {
      const h = Number(text.slice(11, 13));
      const mi = Number(text.slice(14, 16));
      const s = Number(text.slice(17, 19));
      const day = dayMs(text);
      if (day === null || h > 23 || mi > 59 || s > 59) return null;
      const wallMs = day + ((h * 60 + mi) * 60 + s) * 1000;
      return (utc ? wallMs : toInstant(wallMs, text.slice(0, 13))) / 1000;
    }
    if (EPOCH.test(text)) return Math.floor(Number(text));
    return null;
  };
}
