// Errors of the CDR table poller that are about the table itself (not the connection).
import { AppError } from '../../../shared/errors.js';

/** Why a table cannot be read as a CDR table. */
export type CdrTableErrorCode = 'no_table' | 'not_cdr_table';

/** A table that is missing or lacks calldate/src/dst/disposition; the message names it. */
export class CdrTableError extends AppError<CdrTableErrorCode> {}
