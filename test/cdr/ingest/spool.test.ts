import { describe, expect, test } from 'vitest';
import type { SourceRow } from '../../../src/cdr/ingest/source-row.js';
import { decodeSpoolEntry, encodeSpoolEntry, type SpoolEntry } from '../../../src/cdr/ingest/spool.js';

const row: SourceRow = {
  line: 17,
  accountcode: 'sales',
  src: '4002',
  dst: '2021',
  dcontext: 'sip_internal',
  clid: '"Bob Chen" <4002>',
  channel: 'Local/2021@from-4002-0000001d;2',
  dstchannel: 'Local/2011@phones-00000022;1',
  lastapp: 'Dial',
  lastdata: 'Local/2011@phones/n,10,tT',
  start: 1795322886,
  answer: null,
  end: 1795322891,
  duration: 5,
  billsec: 0,
  disposition: 'NO ANSWER',
  amaflags: 'DOCUMENTATION',
  uniqueid: '1795322882.59',
  userfield: 'cfna:2021>2011',
  peeraccount: 'sales',
  linkedid: '1795322882.58',
  sequence: 73,
  initialDestination: '',
  computedDestination: '',
  recordingfile: '',
};

describe('spool entries', () => {
  test('read back exactly what was written, with nulls and empty strings kept apart', () => {
    const entry: SpoolEntry = { identity: '1795322882.59|1795322882.58|73', target: '2011', row };
    const line = encodeSpoolEntry(entry);
    expect(line.startsWith('\u001e')).toBe(false);
    expect(decodeSpoolEntry(line)).toEqual(entry);
    const answered = { ...entry, row: { ...row, answer: 1795322887, sequence: null } };
    expect(decodeSpoolEntry(encodeSpoolEntry(answered))).toEqual(answered);
  });

  test('fall back to JSON for text holding a separator or a CR, and still read back exactly', () => {
    const entry: SpoolEntry = {
      identity: '1795322886:sha256:ab',
      target: '',
      row: { ...row, clid: '"A\u001fB\r" <1>', userfield: 'x\u001e' },
    };
    const line = encodeSpoolEntry(entry);
    expect(line.startsWith('\u001e')).toBe(true);
    expect(line.includes('\r')).toBe(false);
    expect(decodeSpoolEntry(line)).toEqual(entry);
  });
});
