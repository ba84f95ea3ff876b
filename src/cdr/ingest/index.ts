// The CDR ingest area: importing Asterisk CDR CSV files (cdr_csv Master.csv, cdr_custom).
export { createTimeParser, type TimeParser } from './asterisk-time.js';
export {
  CSV_16,
  CSV_17_UNIQUEID,
  CSV_17_USERFIELD,
  CSV_18,
  CUSTOM_21,
  detectLayout,
  type Layout,
  parseColumnsOption,
} from './columns.js';
export { CdrImportError, type CdrImportErrorCode } from './errors.js';
export {
  type BadLine,
  type ImportOptions,
  type ImportSummary,
  type InsertBatch,
  importCdrFile,
} from './import-cdr-file.js';
