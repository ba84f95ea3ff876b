// Errors of the CDR push area. Codes map to HTTP statuses in src/server/error-catalogue.ts
// (bad_setting and bad_parameter are 400, not_found 404).
import { AppError } from '../../shared/errors.js';

/** Codes of CdrPushError. */
export type CdrPushErrorCode = 'bad_setting' | 'bad_parameter' | 'not_configured' | 'not_found';

/** A CDR push error: an invalid setting (the message starts with the field's name) or request. */
export class CdrPushError extends AppError<CdrPushErrorCode> {}
