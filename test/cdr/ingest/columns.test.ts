import { describe, expect, test } from 'vitest';
import {
  CSV_16,
  CSV_17_UNIQUEID,
  CSV_17_USERFIELD,
  CSV_18,
  CUSTOM_21,
  detectLayout,
  parseColumnsOption,
} from '../../../src/cdr/ingest/columns.js';

const fields = (n: number, last = ''): string[] => [...Array.from({ length: n - 1 }, () => 'x'), last];

describe('detectLayout', () => {
  test('knows the cdr_csv and cdr_custom widths Asterisk writes', () => {
    expect(detectLayout(fields(16))).toBe(CSV_16);
    expect(detectLayout(fields(18))).toBe(CSV_18);
    expect(detectLayout(fields(21))).toBe(CUSTOM_21);
    expect(detectLayout(fields(15))).toBeNull();
    expect(detectLayout(fields(19))).toBeNull();
  });

  test('tells a 17th uniqueid column from a 17th userfield column by its shape', () => {
    expect(detectLayout(fields(17, '1795322858.1'))).toBe(CSV_17_UNIQUEID);
    expect(detectLayout(fields(17, 'pbx-east-1795322858.17'))).toBe(CSV_17_UNIQUEID);
    expect(detectLayout(fields(17, 'cfu:2020>2011'))).toBe(CSV_17_USERFIELD);
    expect(detectLayout(fields(17, ''))).toBe(CSV_17_USERFIELD);
  });

  test('puts the 21-column layout in the order of the capture cdr_custom.conf', () => {
    expect(CUSTOM_21.columns.slice(15)).toEqual([
      'amaflags',
      'uniqueid',
      'userfield',
      'peeraccount',
      'linkedid',
      'sequence',
    ]);
  });
});

describe('parseColumnsOption', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: cdr_custom.conf's own ${CDR(...)} syntax, not a template
  test('takes plain names and ${CDR(name)} items, case-insensitively', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: cdr_custom.conf syntax, as an operator pastes it
    expect(parseColumnsOption('start, ${CDR(SRC)},dst,initial_destination').columns).toEqual([
      'start',
      'src',
      'dst',
      'initial_destination',
    ]);
  });

  test('refuses an empty item, a repeated name and a list without start', () => {
    expect(() => parseColumnsOption('start,,dst')).toThrow(/item 2 "" is not a field name/);
    expect(() => parseColumnsOption('start,dst,dst')).toThrow(/dst appears twice/);
    expect(() => parseColumnsOption('src,dst')).toThrow(/must include start/);
  });
});
