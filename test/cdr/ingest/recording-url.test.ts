import { describe, expect, test } from 'vitest';
import { createTimeParser } from '../../../src/cdr/ingest/asterisk-time.js';
import { createHttpCdrReader } from '../../../src/cdr/ingest/live/http-ingest.js';
import { storeSourceRows } from '../../../src/cdr/ingest/live/store-source-rows.js';
import { parseRecordingUrlTemplate } from '../../../src/cdr/ingest/recording-url.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { openTestStore } from '../../support/databases.js';

const row = { recordingfile: '', userfield: '', start: 1795322858, uniqueid: '1795322858.1' };

describe('recording_url template', () => {
  test('builds the URL from recordingfile, else userfield, with the start date in UTC', () => {
    const build = parseRecordingUrlTemplate('https://pbx.example/rec/{yyyy}/{mm}/{dd}/{file}?id={uniqueid}');
    expect(build({ ...row, recordingfile: 'out-2011-4001 x.wav' })).toBe(
      'https://pbx.example/rec/2026/11/22/out-2011-4001%20x.wav?id=1795322858.1',
    );
    expect(build({ ...row, userfield: '2026/11/22/in.wav' })).toBe(
      'https://pbx.example/rec/2026/11/22/2026/11/22/in.wav?id=1795322858.1',
    );
    expect(build(row)).toBe('');
  });

  test('refuses unknown placeholders and a template without {file}', () => {
    expect(() => parseRecordingUrlTemplate('https://x/{path}/{file}')).toThrow('unknown placeholder {path}');
    expect(() => parseRecordingUrlTemplate('https://x/static.wav')).toThrow('needs {file}');
  });

  test('a live source stores the built URL', async () => {
    const t = await openTestStore('sqlite');
    try {
      const read = createHttpCdrReader(createTimeParser('UTC'));
      const parsed = read({
        uniqueid: '1.2',
        start: 1795322858,
        disposition: 'ANSWERED',
        recordingfile: 'a.wav',
      });
      if (!parsed.ok) throw new Error(parsed.message);
      await storeSourceRows(
        t.store,
        parsed.rows.map((r) => ({ row: r, fields: [] })),
        async () => {},
        0,
        undefined,
        parseRecordingUrlTemplate('https://pbx/{file}'),
      );
      expect((await listCdrRecordsAfter(t.store, 0, 10))[0]?.recording_url).toBe('https://pbx/a.wav');
    } finally {
      await t.close();
    }
  });
});
