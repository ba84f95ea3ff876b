// The configuration of `branchgate serve`, from flags and BRANCHGATE_* environment variables, with
// the embedded defaults of docs/configuration.md.
import { resolve } from 'node:path';
import { type AmiSourceSpec, parseAmiSourceSpec } from '../cdr/ingest/live/ami/ami-source-spec.js';
import { type CsvSourceSpec, parseCsvSourceSpec } from '../cdr/ingest/live/csv-source-spec.js';
import { parseSqlSourceSpec, type SqlSourceSpec } from '../cdr/ingest/live/sql-source-spec.js';
import { parseRecordingUrlTemplate, type RecordingUrlBuilder } from '../cdr/ingest/recording-url.js';
import { AppError } from '../shared/errors.js';
import { checkCountryCode } from '../sms/request-fields.js';

/** A host and port to listen on. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Everything `serve` needs. */
export interface ServeConfig {
  dataDir: string;
  /** --db: SQLite path or postgres:// URL; default <dataDir>/branchgate.db. */
  db: string | undefined;
  listen: ListenAddress;
  /** Plain HTTP listener, off unless asked for. */
  httpListen: ListenAddress | undefined;
  /** --metrics-listen: plain HTTP serving only GET /metrics without authentication, off unless asked for. */
  metricsListen: ListenAddress | undefined;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  /** sim | sim-pty | a serial device path. */
  modem: string;
  timeZone: string;
  logLevel: string;
  adminPassword: string | undefined;
  /** --recording-url: builds recording_url of live-ingested records; undefined keeps recordingfile. */
  recordingUrl: RecordingUrlBuilder | undefined;
  /** --ingest-ami: AMI connections whose Cdr events are stored. */
  ingestAmi: AmiSourceSpec[];
  /** --ingest-csv: Master.csv files to follow. */
  ingestCsv: CsvSourceSpec[];
  /** --ingest-sql (+ --ingest-sql-table): CDR tables to poll. */
  ingestSql: SqlSourceSpec[];
  /** --geosite / --geoip: the files POST /api/geo/lookup answers from (the console may set others). */
  geosite: string | undefined;
  geoip: string | undefined;
  /** --sms-default-country-code: the country code national SMS destinations take. */
  smsDefaultCountryCode: string | undefined;
  /** BRANCHGATE_GEO_WATCH_MS: how often the geo files are checked for changes (0: only SIGHUP and the console reload). */
  geoWatchMs: number;
}

/** Parses HOST:PORT (IPv6 as [addr]:port). */
export function parseListen(value: string, flag: string): ListenAddress {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535)
    throw new AppError('bad_config', `${flag} "${value}": expected HOST:PORT, e.g. 0.0.0.0:8443`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** Checks an IANA time zone name. */
export function checkTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    throw new AppError('bad_config', `--time-zone "${tz}": not an IANA time zone (e.g. UTC, Europe/Berlin)`);
  }
}

function watchInterval(value: string | undefined): number {
  if (value === undefined || value === '') return 2000;
  if (!/^\d{1,7}$/.test(value))
    throw new AppError(
      'bad_config',
      `BRANCHGATE_GEO_WATCH_MS "${value}": give milliseconds (0 turns watching off)`,
    );
  return Number(value);
}

/** Raw option values as commander gives them. */
export interface ServeFlags {
  dataDir?: string;
  db?: string;
  listen?: string;
  httpListen?: string;
  metricsListen?: string;
  tlsCert?: string;
  tlsKey?: string;
  modem?: string;
  timeZone?: string;
  logLevel?: string;
  ingestAmi?: string[];
  recordingUrl?: string;
  ingestCsv?: string[];
  ingestSql?: string[];
  ingestSqlTable?: string;
  geosite?: string;
  geoip?: string;
  smsDefaultCountryCode?: string;
}

// Two sources reading the same file or table would race for one position.
function unique<T extends { id: string }>(specs: T[]): T[] {
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.id)) throw new AppError('bad_config', `${s.id} is given twice`);
    seen.add(s.id);
  }
  return specs;
}

/** Resolves flags (already merged with env by commander) into a checked config. */
export function resolveServeConfig(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServeConfig {
  return {
    dataDir: resolve(flags.dataDir ?? 'data'),
    db: flags.db,
    listen: parseListen(flags.listen ?? '0.0.0.0:8443', '--listen'),
    httpListen: flags.httpListen ? parseListen(flags.httpListen, '--http-listen') : undefined,
    metricsListen: flags.metricsListen ? parseListen(flags.metricsListen, '--metrics-listen') : undefined,
    tlsCert: flags.tlsCert,
    tlsKey: flags.tlsKey,
    modem: flags.modem ?? 'sim',
    timeZone: checkTimeZone(flags.timeZone ?? 'UTC'),
    logLevel: flags.logLevel ?? 'info',
    adminPassword: env.BRANCHGATE_ADMIN_PASSWORD,
    recordingUrl: flags.recordingUrl ? parseRecordingUrlTemplate(flags.recordingUrl) : undefined,
    ingestAmi: unique((flags.ingestAmi ?? []).map((v) => parseAmiSourceSpec(v))),
    ingestCsv: unique((flags.ingestCsv ?? []).map((v) => parseCsvSourceSpec(v))),
    geosite: flags.geosite ? resolve(flags.geosite) : undefined,
    geoip: flags.geoip ? resolve(flags.geoip) : undefined,
    geoWatchMs: watchInterval(env.BRANCHGATE_GEO_WATCH_MS),
    smsDefaultCountryCode: flags.smsDefaultCountryCode
      ? checkCountryCode(flags.smsDefaultCountryCode, '--sms-default-country-code')
      : undefined,
    ingestSql: unique(
      (flags.ingestSql ?? []).map((v) => parseSqlSourceSpec(v, flags.ingestSqlTable ?? 'cdr')),
    ),
  };
}
