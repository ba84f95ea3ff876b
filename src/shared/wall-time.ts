// Wall-clock times for people: unix seconds as "YYYY-MM-DD HH:MM:SS" in one IANA time zone, as
// the CDR records and SMS messages show them.

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Formats unix seconds as local wall time in one IANA time zone; caches the zone offset per 15 minutes. */
export class TimeFormatter {
  readonly timeZone: string;
  private readonly utc: boolean;
  private readonly dtf: Intl.DateTimeFormat | null;
  private readonly offsets = new Map<number, number>();

  constructor(timeZone = 'UTC') {
    this.dtf = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    this.timeZone = this.dtf.resolvedOptions().timeZone;
    this.utc = this.timeZone === 'UTC' || this.timeZone === 'Etc/UTC';
  }

  /** Offset of the zone from UTC in seconds at the given instant. Zone transitions fall on quarter hours, so one lookup per 15-minute bucket is exact. */
  private offsetAt(unix: number): number {
    const bucket = Math.floor(unix / 900);
    const hit = this.offsets.get(bucket);
    if (hit !== undefined) return hit;
    const parts = (this.dtf as Intl.DateTimeFormat).formatToParts(new Date(unix * 1000));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const asUtc = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
    );
    const offset = Math.round(asUtc / 1000 - unix);
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
