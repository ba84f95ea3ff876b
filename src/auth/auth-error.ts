// Errors of the accounts area.
import { AppError } from '../shared/errors.js';

/** Codes of AuthError; each maps to an HTTP status in src/server/error-catalogue.ts. */
export type AuthErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'too_many_attempts'
  | 'user_exists'
  | 'no_such_user'
  | 'extension_exists'
  | 'no_such_extension'
  | 'bad_username'
  | 'bad_password'
  | 'bad_extension'
  | 'bad_token'
  | 'no_such_token'
  | 'last_admin';

/** An accounts error: bad credentials, missing rights, unknown or duplicate names. */
export class AuthError extends AppError<AuthErrorCode> {}
