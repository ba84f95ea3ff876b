// `--ingest-csv PATH[?columns=a,b,c&tz=Zone]`: one Master.csv follower's file and its layout
// options (those of `cdr import`: --columns and --time-zone), checked before the server starts.
import { isAbsolute, resolve } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { createTimeParser } from '../asterisk-time.js';
import { type Layout, parseColumnsOption } from '../columns.js';

/** One follower's configuration. */
export interface CsvSourceSpec {
  /** Stable source id: `csv:` and the path. */
  id: string;
  /** Absolute path of the file Asterisk appends to. */
  path: string;
  /** The --columns layout, or null to detect it from the first record (16/17/18/21 columns). */
  layout: Layout | null;
  /** IANA zone the file's wall-clock times are in (UTC for usegmtime=yes). */
  timezone: string;
}

const KEYS = new Set(['columns', 'tz', 'time-zone']);

/** Parses one --ingest-csv value; a bad option is a bad_config error naming it. */
export function parseCsvSourceSpec(text: string): CsvSourceSpec {
  let path = text;
  let params = new URLSearchParams();
  const q = text.lastIndexOf('?');
  if (q > 0) {
    const candidate = new URLSearchParams(text.slice(q + 1));
    if ([...candidate.keys()].every((k) => KEYS.has(k))) {
      path = text.slice(0, q);
      params = candidate;
    }
  }
  if (path.trim() === '') throw new AppError('bad_config', '--ingest-csv: a file path is required');
  const timezone = params.get('tz') ?? params.get('time-zone') ?? 'UTC';
  const columns = params.get('columns');
  try {
    createTimeParser(timezone);
    const absolute = isAbsolute(path) ? path : resolve(path);
    return {
      id: `csv:${absolute}`,
      path: absolute,
      layout: columns === null ? null : parseColumnsOption(columns),
      timezone,
    };
  } catch (err) {
    throw new AppError('bad_config', `--ingest-csv ${path}: ${(err as Error).message}`, { cause: err });
  }
}
