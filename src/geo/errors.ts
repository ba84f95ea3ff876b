// The geo area's error class: every compile, read and export failure carries one of these codes and
// a message saying what was wrong and where (file:line for sources, byte offset for .dat files).
import { AppError } from '../shared/errors.js';

/** Stable codes of geo failures. */
export type GeoErrorCode =
  | 'source_syntax'
  | 'source_include'
  | 'source_cycle'
  | 'source_empty'
  | 'ip_syntax'
  | 'mmdb_invalid'
  | 'dat_corrupt'
  | 'dat_kind'
  | 'code_not_found'
  | 'file_unreadable'
  | 'usage'
  | 'export_unsupported'
  | 'regexp_invalid'
  | 'ip_invalid'
  | 'mrs_corrupt'
  | 'route_rule'
  | 'ruleset_corrupt'
  | 'ruleset_unsupported'
  | 'format_unknown';

/**
 * A geo failure: bad source line, corrupt .dat, unknown list code, unsupported conversion;
 * ruleset_corrupt / ruleset_unsupported: a sing-box rule-set that is malformed / holds what a
 * branchgate list cannot; format_unknown: a file `geo convert` cannot tell the format of.
 */
export class GeoError extends AppError<GeoErrorCode> {}
