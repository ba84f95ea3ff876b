// `--ingest-sql mysql://USER:PASS@HOST:3306/asteriskcdrdb | postgres://...` with
// `--ingest-sql-table cdr`: one CDR table poller's database, table and options, checked before the
// server starts. Options of our own ride in the URL's query and are removed before connecting:
// table=, tz= (zone of calldate), window= (late-commit look-back, s), max-call= (s), poll= (ms).
import { AppError } from '../../../shared/errors.js';
import { createTimeParser } from '../asterisk-time.js';

/** One poller's configuration. */
export interface SqlSourceSpec {
  kind: 'mysql' | 'postgres';
  /** The URL to connect with (password included; never logged). */
  connectUrl: string;
  /** The URL without its password, for status and logs. */
  target: string;
  /** Stable source id, e.g. `sql:127.0.0.1:3306/asteriskcdrdb/cdr`. */
  id: string;
  /** Table name, optionally schema-qualified (`cdr`, `public.cdr`). */
  table: string;
  /** IANA zone calldate is written in (a timestamptz column is read as the instant it is). */
  timezone: string;
  /** Look-back for rows that commit late, seconds (default 600 in UTC, 4200 in a zone with DST). */
  windowSeconds: number;
  /** The longest call whose row is still found, seconds (default 86400). */
  maxCallSeconds: number;
  /** Poll interval, ms (default 2000). */
  pollMs: number;
}

const TABLE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/;
const OURS = ['table', 'tz', 'window', 'max-call', 'poll'] as const;

function positiveInt(flag: string, name: string, value: string | null, fallback: number): number {
  if (value === null) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(value)) {
    throw new AppError(
      'bad_config',
      `${flag}: ${name}=${JSON.stringify(value)} is not a positive whole number`,
    );
  }
  return Number(value);
}

/** Parses one --ingest-sql value; `defaultTable` is --ingest-sql-table (table= in the URL wins). */
export function parseSqlSourceSpec(text: string, defaultTable = 'cdr'): SqlSourceSpec {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError(
      'bad_config',
      '--ingest-sql: not a URL (expected mysql://USER@HOST:3306/DB or postgres://...)',
    );
  }
  const scheme = url.protocol.replace(/:$/, '');
  const kind =
    scheme === 'mysql' || scheme === 'mariadb'
      ? 'mysql'
      : scheme === 'postgres' || scheme === 'postgresql'
        ? 'postgres'
        : null;
  if (!kind)
    throw new AppError('bad_config', `--ingest-sql: scheme ${scheme}: is not mysql:, mariadb: or postgres:`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const flag = `--ingest-sql ${kind}://${url.host}/${database}`;
  if (database === '') throw new AppError('bad_config', `${flag}: the URL names no database`);
  const params = url.searchParams;
  const table = params.get('table') ?? defaultTable;
  if (!TABLE.test(table))
    throw new AppError('bad_config', `${flag}: table ${JSON.stringify(table)} is not a table name`);
  const timezone = params.get('tz') ?? 'UTC';
  try {
    createTimeParser(timezone);
  } catch (err) {
    throw new AppError('bad_config', `${flag}: ${(err as Error).message.replace('--time-zone', 'tz')}`);
  }
  const windowSeconds = positiveInt(flag, 'window', params.get('window'), timezone === 'UTC' ? 600 : 4200);
  const maxCallSeconds = positiveInt(flag, 'max-call', params.get('max-call'), 86_400);
  const pollMs = positiveInt(flag, 'poll', params.get('poll'), 2000);
  for (const k of OURS) params.delete(k);
  if (kind === 'mysql') url.protocol = 'mysql:';
  const connectUrl = url.toString();
  const shown = new URL(connectUrl);
  shown.password = '';
  const port = url.port || (kind === 'mysql' ? '3306' : '5432');
  return {
    kind,
    connectUrl,
    target: `${shown.toString()}${shown.search ? '&' : '?'}table=${table}`,
    id: `sql:${url.hostname}:${port}/${database}/${table}`,
    table,
    timezone,
    windowSeconds,
    maxCallSeconds,
    pollMs,
  };
}
