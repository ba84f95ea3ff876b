import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TimeFormatter } from '../../src/shared/wall-time.js';

// An independent rendering: Intl on every call, no offset cache.
function reference(zone: string, unix: number): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(unix * 1000));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
];

test('renders wall time as Intl does, across DST changes and odd offsets, whatever the call order', () => {
  for (const zone of ZONES) {
    const f = new TimeFormatter(zone);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4_102_444_800 }), { minLength: 1, maxLength: 50 }),
        (times) => {
          for (const t of times) expect(f.format(t), `${zone} ${t}`).toBe(reference(zone, t));
        },
      ),
      { numRuns: 200 },
    );
  }
});

test('the seconds either side of a DST change render on their own side', () => {
  const f = new TimeFormatter('Europe/Berlin');
  // 2026-03-29 01:00:00 UTC: clocks go from 02:00 CET to 03:00 CEST.
  const change = Date.UTC(2026, 2, 29, 1, 0, 0) / 1000;
  expect(f.format(change - 1)).toBe('2026-03-29 01:59:59');
  expect(f.format(change)).toBe('2026-03-29 03:00:00');
  // 2026-10-25 01:00:00 UTC: clocks go from 03:00 CEST back to 02:00 CET.
  const back = Date.UTC(2026, 9, 25, 1, 0, 0) / 1000;
  expect(f.format(back - 1)).toBe('2026-10-25 02:59:59');
  expect(f.format(back)).toBe('2026-10-25 02:00:00');
});
