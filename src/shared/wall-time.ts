// Wall-clock times for people: unix seconds as "YYYY-MM-DD HH:MM:SS" in one IANA time zone, as
// the CDR records and SMS messages show them.

/**
 * An Intl formatter giving the wall-clock fields of an instant in `timeZone` (24-hour). Throws
 * RangeError for a name that is not an IANA time zone.
 */
export function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The zone's offset from UTC in milliseconds at instant `ms`, read through a wallClockFormat. */
export function zoneOffsetMs(format: Intl.DateTimeFormat, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Formats unix seconds as local wall time in one IANA time zone; caches the zone offset per 15 minutes. */
export class TimeFormatter {
  readonly timeZone: string;
  private readonly utc: boolean;
  private readonly dtf: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

  constructor(timeZone = 'UTC') {
    this.dtf = wallClockFormat(timeZone);
    this.timeZone = this.dtf.resolvedOptions().timeZone;
    this.utc = this.timeZone === 'UTC' || this.timeZone === 'Etc/UTC';
  }

  /** Offset of the zone from UTC in seconds at the given instant. Zone transitions fall on quarter hours, so one lookup per 15-minute bucket is exact. */
  private offsetAt(unix: number): number {
    const bucket = Math.floor(unix / 900);
    const hit = this.offsets.get(bucket);
    if (hit !== undefined) return hit;
    const offset = Math.round(zoneOffsetMs(this.dtf, unix * 1000) / 1000);
    if (this.offsets.size > 10_000) this.offsets.clear();
    this.offsets.set(bucket, offset);
    return offset;
  }

  /** "YYYY-MM-DD HH:MM:SS" in the zone. */
  format(unix: number): string {
    const d = new Date((this.utc ? unix : unix + this.offsetAt(unix)) * 1000);
    return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(
      d.getUTCMinutes(),
    )}:${pad2(d.getUTCSeconds())}`;
  }
}
