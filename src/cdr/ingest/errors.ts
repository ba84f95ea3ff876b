// Errors of the CDR import: a whole-import refusal (unknown layout, bad option, bad lines under
// --strict). A single bad line is not an error: it is reported and skipped (see BadLine).
import { AppError } from '../../shared/errors.js';

/** Why an import was refused as a whole. */
export type CdrImportErrorCode =
  | 'bad_columns'
  | 'bad_option'
  | 'bad_timezone'
  | 'unknown_layout'
  | 'bad_lines'
  | 'unreadable';

/** A refused CDR import; the message names the file, line and field where it applies. */
export class CdrImportError extends AppError<CdrImportErrorCode> {}
