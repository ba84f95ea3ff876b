import { describe, expect, test } from 'vitest';
import { createTimeParser } from '../../../src/cdr/ingest/asterisk-time.js';
import { CdrImportError } from '../../../src/cdr/ingest/errors.js';

const utcSeconds = (y: number, mo: number, d: number, h: number, mi: number, s: number): number =>
  Date.UTC(y, mo - 1, d, h, mi, s) / 1000;

describe('createTimeParser', () => {
  test('reads cdr_csv times written with usegmtime as UTC', () => {
    const parse = createTimeParser('UTC');
    expect(parse('2026-11-22 04:47:38')).toBe(utcSeconds(2026, 11, 22, 4, 47, 38));
    expect(parse('2024-02-29 23:59:59')).toBe(utcSeconds(2024, 2, 29, 23, 59, 59));
  });

  test('reads epoch seconds as cdr_custom writes them with CDR(start,u)', () => {
    const parse = createTimeParser('Europe/Berlin');
    expect(parse('1795322858.123456')).toBe(1795322858);
    expect(parse('1795322858')).toBe(1795322858);
  });

  test('refuses text that is not a time, impossible dates and out-of-range clock values', () => {
    const parse = createTimeParser('UTC');
    for (const bad of [
      '',
      'yesterday',
      '2026-02-30 10:00:00',
      '2026-13-01 10:00:00',
      '2026-11-22 24:00:00',
      '2026-11-22 4:47:38',
    ]) {
      expect(parse(bad), bad).toBeNull();
    }
  });

  test('reads local times in the given zone, winter and summer offsets', () => {
    const parse = createTimeParser('Europe/Berlin');
    expect(parse('2026-01-15 12:00:00')).toBe(utcSeconds(2026, 1, 15, 11, 0, 0));
    expect(parse('2026-07-15 12:00:00')).toBe(utcSeconds(2026, 7, 15, 10, 0, 0));
    expect(createTimeParser('America/New_York')('2026-07-15 12:00:00')).toBe(
      utcSeconds(2026, 7, 15, 16, 0, 0),
    );
  });

  test('takes the earlier instant for a wall time that occurs twice when clocks go back', () => {
    // 2026-10-25 in Berlin: 02:30 happens at 00:30 UTC (CEST) and again at 01:30 UTC (CET).
    expect(createTimeParser('Europe/Berlin')('2026-10-25 02:30:00')).toBe(utcSeconds(2026, 10, 25, 0, 30, 0));
  });

  test('moves a wall time that never occurs (clocks go forward) forward by the gap', () => {
    // 2026-03-29 in Berlin: 02:00-03:00 does not exist; 02:30 is read as 03:30 CEST = 01:30 UTC.
    expect(createTimeParser('Europe/Berlin')('2026-03-29 02:30:00')).toBe(utcSeconds(2026, 3, 29, 1, 30, 0));
  });

  test('gives the same answers for an hour after it was cached', () => {
    const parse = createTimeParser('Europe/Berlin');
    expect(parse('2026-07-15 12:00:00')).toBe(parse('2026-07-15 12:00:00'));
    expect(parse('2026-07-15 12:59:59')).toBe(utcSeconds(2026, 7, 15, 10, 59, 59));
  });

  test('refuses a zone name that is not an IANA zone', () => {
    expect(() => createTimeParser('Mars/Olympus')).toThrow(CdrImportError);
    expect(() => createTimeParser('Mars/Olympus')).toThrow(/--time-zone: "Mars\/Olympus"/);
  });
});
