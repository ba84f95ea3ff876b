import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type BadLine,
  CdrImportError,
  type ImportOptions,
  importCdrFile,
  parseColumnsOption,
} from '../../../src/cdr/ingest/index.js';
import { MAX_LINE_LENGTH } from '../../../src/cdr/ingest/line-reader.js';
import type { NewCdrRecord } from '../../../src/cdr/record.js';

const CAPTURE = new URL('../../../../shared/corpora/cdr/asterisk-22/', import.meta.url);
const MASTER = new URL('Master.csv', CAPTURE).pathname;
const MASTER_FULL = new URL('Master-full.csv', CAPTURE).pathname;
const masterLines = readFileSync(MASTER, 'utf8').trim().split('\n');

const dir = mkdtempSync(join(tmpdir(), 'bg-cdr-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `in-${++files}.csv`);
  writeFileSync(path, content);
  return path;
}

/** Imports into a plain in-memory table keyed by identity (the store's duplicate rule). */
async function importInto(
  path: string,
  options: ImportOptions = {},
  table = new Map<string, NewCdrRecord>(),
) {
  const bad: BadLine[] = [];
  const summary = await importCdrFile(
    path,
    async (records) => {
      let inserted = 0;
      for (const r of records) {
        if (table.has(r.identity)) continue;
        table.set(r.identity, r);
        inserted++;
      }
      return { inserted, duplicates: records.length - inserted };
    },
    { onBadLine: (b) => bad.push(b), ...options },
  );
  return { summary, bad, records: [...table.values()], table };
}

const utc = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

// Every call of make-calls.log, by CDR sequence: [dst, initial_destination, computed_destination].
const SCENARIOS: Record<number, [string, string, string]> = {
  1: ['2011', '2011', ''], // 4001 -> 2011 answered
  5: ['2012', '2012', ''], // 4002 -> 2012, caller hangs up
  9: ['2013', '2013', ''], // NO ANSWER (timeout)
  13: ['2014', '2014', ''], // BUSY
  18: ['2015', '2015', ''], // CONGESTION
  23: ['2016', '2016', ''], // FAILED
  28: ['2017', '2017', ''], // NO ANSWER (caller abandons)
  32: ['2018', '2018', ''], // answered, caller hangs up first
  36: ['2011', '2011', ''], // pstn -> 2011
  40: ['2013', '2013', ''], // pstn -> 2013, no answer
  45: ['00493012345678', '00493012345678', ''], // outbound trunk, prefix stripped by the dialplan
  49: ['2040', '2040', ''], // answered by the PBX itself
  51: ['2012', '2012', ''],
  55: ['2011', '2011', ''],
  60: ['2020', '2020', '2011'], // unconditional forward 2020 -> 2011
  64: ['2021', '2021', '2013'], // forward on no answer: first rings 2013
  73: ['2021', '2021', '2011'], //   ... then 2011 answers
  68: ['2022', '2022', '2012'], // forward through a Local hop 2022 -> 2012
  70: ['2012', '2022', '2012'], //   ... the hop's own leg
  77: ['2011', '2030', ''], // blind transfer: the leg to 2030 (dst rewritten to 2011 by Asterisk)
  80: ['2011', '2030', '2011'], //   ... the leg to 2011
  84: ['2031', '2031', ''], // attended transfer: 4001 talks to 2031
  91: ['', '2031', '2012'], //   ... 2031's consultation call to 2012
  88: ['2012', '2031', '2012'],
  92: ['2012', '2031', '2012'],
  93: ['2031', '2031', '2012'], //   ... 4001 bridged to 2012
  95: ['2011', '2032', ''], // redirect: the leg to 2032
  98: ['2011', '2032', '2011'], //   ... the leg to 2011 after the redirect
};

describe('importCdrFile on the real Asterisk 22 capture', () => {
  test('maps every record of Master-full.csv and derives the destinations of each scenario', async () => {
    const { summary, records, bad } = await importInto(MASTER_FULL);
    expect(bad).toEqual([]);
    expect(summary).toEqual({
      layout: 'cdr_custom 21 columns',
      read: 28,
      inserted: 28,
      duplicates: 0,
      bad: 0,
      latin1: 0,
    });
    const bySequence = new Map(records.map((r) => [r.sequence, r]));
    expect(bySequence.size).toBe(Object.keys(SCENARIOS).length);
    for (const [sequence, [dst, initial, computed]] of Object.entries(SCENARIOS)) {
      const r = bySequence.get(Number(sequence));
      expect([r?.dst, r?.initialDestination, r?.computedDestination], `sequence ${sequence}`).toEqual([
        dst,
        initial,
        computed,
      ]);
    }
  });

  test('maps the fields of one record as the line says', async () => {
    const { records } = await importInto(MASTER_FULL);
    const outbound = records.find((r) => r.sequence === 45);
    expect(outbound).toEqual({
      identity: expect.stringMatching(/^1795322870:[0-9a-f]{64}$/),
      uniqueid: '1795322870.41',
      linkedid: '1795322870.40',
      sequence: 45,
      accountcode: 'sales',
      clid: '"Alice Martin" <4001>',
      src: '4001',
      dst: '00493012345678',
      dcontext: 'sip_internal',
      channel: 'Local/00493012345678@from-4001-00000014;2',
      dstchannel: 'Local/0493012345678@trunk-00000015;1',
      lastapp: 'Dial',
      lastdata: 'Local/0493012345678@trunk/n,15,T',
      start: utc('2026-11-22 04:47:50'),
      answer: utc('2026-11-22 04:47:52'),
      end: utc('2026-11-22 04:47:57'),
      duration: 6,
      billsec: 4,
      disposition: 'ANSWERED',
      amaflags: 'BILLING',
      userfield: 'outbound',
      peeraccount: 'sales',
      initialDestination: '00493012345678',
      computedDestination: '',
      recordingUrl: '',
    });
    const busy = records.find((r) => r.sequence === 13);
    expect([busy?.answer, busy?.disposition, busy?.billsec]).toEqual([null, 'BUSY', 0]);
  });

  test('reads Master.csv (18 columns, unquoted empties) to the same values, grouping by uniqueid', async () => {
    const full = (await importInto(MASTER_FULL)).records;
    const { summary, records } = await importInto(MASTER);
    expect(summary.layout).toBe('cdr_csv 18 columns');
    expect(records).toHaveLength(28);
    for (const [i, r] of records.entries()) {
      const f = full[i] as NewCdrRecord;
      expect([r.uniqueid, r.start, r.answer, r.end, r.duration, r.billsec, r.clid, r.dst]).toEqual([
        f.uniqueid,
        f.start,
        f.answer,
        f.end,
        f.duration,
        f.billsec,
        f.clid,
        f.dst,
      ]);
      expect([r.linkedid, r.sequence]).toEqual(['', null]);
      expect(r.identity).toBe(f.identity);
    }
    // Without linkedid, transfers and redirects are still recovered from the moved channel's uniqueid.
    const blind = records.filter((r) => r.uniqueid === '1795322892.71');
    expect(blind.map((r) => [r.initialDestination, r.computedDestination])).toEqual([
      ['2030', ''],
      ['2030', '2011'],
    ]);
    // Without linkedid, another channel of the call (the Local hop of the 2022 forward) stands alone.
    const hop = records.find((r) => r.uniqueid === '1795322883.65');
    expect([hop?.initialDestination, hop?.computedDestination]).toEqual(['2012', '']);
    const redirect = records.filter((r) => r.uniqueid === '1795322912.85');
    expect(redirect.map((r) => [r.initialDestination, r.computedDestination])).toEqual([
      ['2032', ''],
      ['2032', '2011'],
    ]);
  });

  test('adds nothing when the same file is imported twice', async () => {
    for (const path of [MASTER, MASTER_FULL]) {
      const first = await importInto(path);
      const second = await importInto(path, {}, first.table);
      expect(second.summary).toMatchObject({ read: 28, inserted: 0, duplicates: 28 });
      expect(second.table.size).toBe(28);
    }
  });
});

describe('importCdrFile layouts and encodings', () => {
  test('detects the 16-column layout (no uniqueid, no userfield) and identifies rows by content', async () => {
    const lines = masterLines.map((l) => l.replace(/,"[^"]*","[^"]*"$/, ''));
    const { summary, records } = await importInto(file(`${lines.join('\n')}\n`));
    expect(summary).toMatchObject({ layout: 'cdr_csv 16 columns', inserted: 28 });
    expect(records[0]).toMatchObject({ uniqueid: '', userfield: '', amaflags: 'DOCUMENTATION', dst: '2014' });
  });

  test('detects 17 columns with uniqueid and with userfield', async () => {
    const withId = masterLines.map((l) => l.replace(/,"[^"]*"$/, ''));
    const a = await importInto(file(withId.join('\n')));
    expect(a.summary.layout).toBe('cdr_csv 17 columns (uniqueid)');
    expect(a.records[0]?.uniqueid).toBe('1795322861.13');
    const withUserfield = masterLines.map((l) => l.replace(/,("[^"]*"),("[^"]*")$/, ',$2'));
    const b = await importInto(file(withUserfield.join('\n')));
    expect(b.summary.layout).toBe('cdr_csv 17 columns (userfield)');
    expect(b.records.find((r) => r.dst === '2020')?.userfield).toBe('cfu:2020>2011');
  });

  test('keeps a Latin-1 caller name from an older system, decoded, not rejected', async () => {
    const latin1 = masterLines[0]?.replace('Dave Evans', 'José Muñoz') as string;
    const content = Buffer.concat([
      Buffer.from(`${masterLines[2]}\n`, 'utf8'),
      Buffer.from(`${latin1}\n`, 'latin1'),
      Buffer.from(`${masterLines[4]?.replace('Bob Chen', 'Zoë Ångström')}\n`, 'utf8'),
    ]);
    const { summary, records } = await importInto(file(content));
    expect(summary).toMatchObject({ read: 3, inserted: 3, bad: 0, latin1: 1 });
    expect(records.map((r) => r.clid)).toEqual([
      '"Alice Martin" <4001>',
      '"José Muñoz" <4004>',
      '"Zoë Ångström" <4002>',
    ]);
  });

  test('takes a cdr_custom layout from --columns, with an initial_destination CDR variable', async () => {
    const content = [
      '"1795400000.5","2026-11-22 10:00:00","2026-11-22 10:00:02","2026-11-22 10:00:30","4001","2099","Local/2011@phones-00000001;1","Dial","Local/2011@phones/n","ANSWERED","2050"',
      '"1795400001.6","1795400001.250000","","1795400011","4002","2011","","Dial","PJSIP/2011,20","NO ANSWER",""',
    ].join('\n');
    const layout = parseColumnsOption(
      'uniqueid,start,answer,end,src,dst,dstchannel,lastapp,lastdata,disposition,initial_destination',
    );
    const { summary, records } = await importInto(file(content), { layout });
    expect(summary).toMatchObject({ layout: '--columns (11)', inserted: 2, bad: 0 });
    expect(records[0]).toMatchObject({
      start: utc('2026-11-22 10:00:00'),
      duration: 30,
      billsec: 28,
      initialDestination: '2050',
      computedDestination: '2011',
    });
    expect(records[1]).toMatchObject({
      start: 1795400001,
      end: 1795400011,
      answer: null,
      duration: 10,
      billsec: 0,
      initialDestination: '2011',
      computedDestination: '',
    });
  });

  test('reads wall-clock times in --timezone', async () => {
    const { records } = await importInto(file(`${masterLines[2]}\n`), { timezone: 'Europe/Berlin' });
    expect(records[0]?.start).toBe(utc('2026-11-22 03:47:38'));
  });
});

describe('importCdrFile bad lines', () => {
  const badFile = (): string =>
    file(
      [
        masterLines[0],
        masterLines[1]?.replace('"2026-11-22 04:47:42"', '"2026-11-22 25:47:42"'),
        masterLines[2]?.replace(',4,3,', ',4,three,'),
        '"sales","4001","20',
        masterLines[3]?.replace(/,"[^"]*"$/, ''),
        '',
        masterLines[4],
      ].join('\n'),
    );

  test('reports each bad line with its number and reason, and imports the others', async () => {
    const { summary, bad, records } = await importInto(badFile());
    expect(bad).toEqual([
      { line: 2, reason: 'field start: "2026-11-22 25:47:42" is not a time' },
      { line: 3, reason: 'field billsec: "three" is not a whole number' },
      { line: 4, reason: 'malformed CSV: a quoted field is not closed' },
      { line: 5, reason: 'has 17 fields, the layout (cdr_csv 18 columns) has 18' },
    ]);
    expect(summary).toEqual({
      layout: 'cdr_csv 18 columns',
      read: 6,
      inserted: 2,
      duplicates: 0,
      bad: 4,
      latin1: 0,
    });
    expect(records.map((r) => r.uniqueid)).toEqual(['1795322861.13', '1795322859.5']);
  });

  test('with strict, refuses the whole import naming the bad lines, and inserts nothing', async () => {
    const path = badFile();
    const table = new Map<string, NewCdrRecord>();
    const attempt = importInto(path, { strict: true }, table);
    await expect(attempt).rejects.toThrow(CdrImportError);
    await expect(importInto(path, { strict: true }, table)).rejects.toThrow(
      `${path}: 4 bad line(s), nothing imported (--strict):\n  ${path}:2: field start:`,
    );
    expect(table.size).toBe(0);
  });

  test('reports a line longer than the limit (a binary or corrupt file) and goes on', async () => {
    const path = file(`${masterLines[0]}\n${'\u0000'.repeat(MAX_LINE_LENGTH + 1)}\n${masterLines[1]}\n`);
    const { summary, bad } = await importInto(path);
    expect(bad).toEqual([{ line: 2, reason: `longer than ${MAX_LINE_LENGTH} characters` }]);
    expect(summary).toMatchObject({ read: 3, inserted: 2, bad: 1 });
  });

  test('refuses a file in which no line has an Asterisk layout width', async () => {
    await expect(importInto(file('a,b,c\nd,e,f\n'))).rejects.toThrow(
      /cannot tell the column layout.*--columns/,
    );
  });

  test('says which file cannot be read', async () => {
    await expect(importInto(join(dir, 'missing.csv'))).rejects.toThrow(/cannot read .*missing\.csv/);
  });
});

describe('importCdrFile field content', () => {
  test('keeps control characters and a trailing CR inside quoted fields exactly', async () => {
    const odd = masterLines[2]
      ?.replace('"Alice Martin"', '"Alice\u001fMartin\r"')
      .replace(/""$/, '"note\u001e\r"') as string;
    const { records, summary } = await importInto(file(`${odd}\r\n${masterLines[4]}\r\n`));
    expect(summary).toMatchObject({ inserted: 2, bad: 0 });
    expect(records[0]?.clid).toBe('"Alice\u001fMartin\r" <4001>');
    expect(records[0]?.userfield).toBe('note\u001e\r');
    expect(records[1]?.clid).toBe('"Bob Chen" <4002>');
  });
});
