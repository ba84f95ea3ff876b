// The one error class of the SMS API. Its codes are those of the server's error catalogue, so the
// routes map them to HTTP statuses with httpStatusOf, inside the SMS envelope.
import { AppError } from '../shared/errors.js';

/** Why an SMS request failed. */
export type SmsErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'too_many_attempts'
  | 'not_found'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'unavailable';

/** An expected SMS API failure; the message names the field or the reason, never a secret. */
export class SmsError extends AppError<SmsErrorCode> {}
