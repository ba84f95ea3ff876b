// --ingest-csv and --ingest-sql values: options read, bad ones refused naming them, no password shown.
import { describe, expect, test } from 'vitest';
import { parseCsvSourceSpec } from '../../../src/cdr/ingest/live/csv-source-spec.js';
import { parseSqlSourceSpec } from '../../../src/cdr/ingest/live/sql-source-spec.js';
import { resolveServeConfig } from '../../../src/server/config.js';

describe('--ingest-csv', () => {
  test('reads a path with columns and tz, and a plain path', () => {
    const spec = parseCsvSourceSpec(
      '/var/log/asterisk/cdr-custom/Master.csv?columns=start,src,dst&tz=Europe/Berlin',
    );
    expect(spec).toMatchObject({
      id: 'csv:/var/log/asterisk/cdr-custom/Master.csv',
      path: '/var/log/asterisk/cdr-custom/Master.csv',
      timezone: 'Europe/Berlin',
      layout: { columns: ['start', 'src', 'dst'] },
    });
    expect(parseCsvSourceSpec('/tmp/odd?name.csv')).toMatchObject({
      path: '/tmp/odd?name.csv',
      layout: null,
      timezone: 'UTC',
    });
  });

  test('refuses a bad zone or column list, naming the file', () => {
    expect(() => parseCsvSourceSpec('/x/Master.csv?tz=Mars/Olympus')).toThrow(
      '--ingest-csv /x/Master.csv: --time-zone: "Mars/Olympus" is not an IANA time zone name',
    );
    expect(() => parseCsvSourceSpec('/x/Master.csv?columns=src,src,start')).toThrow(
      '--ingest-csv /x/Master.csv: --columns: src appears twice',
    );
  });
});

describe('--ingest-sql', () => {
  test('reads the URL, takes our options out, and shows it without the password', () => {
    const spec = parseSqlSourceSpec(
      'mariadb://cdr:s3cret@pbx.example:3307/asteriskcdrdb?tz=UTC&window=120&poll=500',
      'cdr',
    );
    expect(spec).toMatchObject({
      kind: 'mysql',
      connectUrl: 'mysql://cdr:s3cret@pbx.example:3307/asteriskcdrdb',
      target: 'mysql://cdr@pbx.example:3307/asteriskcdrdb?table=cdr',
      id: 'sql:pbx.example:3307/asteriskcdrdb/cdr',
      table: 'cdr',
      windowSeconds: 120,
      maxCallSeconds: 86_400,
      pollMs: 500,
    });
    expect(parseSqlSourceSpec('postgres://u@db/asterisk?table=public.cdr&tz=Europe/Berlin')).toMatchObject({
      kind: 'postgres',
      table: 'public.cdr',
      windowSeconds: 4200,
      id: 'sql:db:5432/asterisk/public.cdr',
    });
  });

  test('refuses what it cannot use, without the password in the message', () => {
    const bad = (url: string) => () => parseSqlSourceSpec(url, 'cdr');
    expect(bad('sqlite:///tmp/x.db')).toThrow(
      '--ingest-sql: scheme sqlite: is not mysql:, mariadb: or postgres:',
    );
    expect(bad('mysql://u:pw@h/db?table=cdr;drop')).toThrow(
      '--ingest-sql mysql://h/db: table "cdr;drop" is not a table name',
    );
    expect(bad('mysql://u:pw@h/db?window=0')).toThrow('window="0" is not a positive whole number');
    expect(bad('mysql://u:pw@h/')).toThrow('--ingest-sql mysql://h/: the URL names no database');
    expect(bad('mysql://u:pw@h/db?tz=Nowhere')).toThrow(
      /^--ingest-sql mysql:\/\/h\/db: tz: "Nowhere" is not an IANA time zone name$/,
    );
  });

  test('serve refuses the same source twice', () => {
    expect(() => resolveServeConfig({ ingestCsv: ['/x/Master.csv', '/x/Master.csv'] }, {})).toThrow(
      'csv:/x/Master.csv is given twice',
    );
  });
});
