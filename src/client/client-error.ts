// The one error class of the SDK: what went wrong (a code), the HTTP status and the server's own
// error code and message when it answered, and which request it was, with secrets redacted.
import { AppError } from '../shared/errors.js';

/** Why a client call failed. */
export type ClientErrorCode =
  /** The server answered with a status other than 2xx; see status, serverCode, serverMessage. */
  | 'http_status'
  /** No complete answer within the per-request timeout. */
  | 'timeout'
  /** The connection could not be made or broke (refused, reset, DNS). */
  | 'connection'
  /** The server's TLS certificate was not trusted (pass its CA with `ca`). */
  | 'tls'
  /** A 2xx answer whose body does not follow the contract. */
  | 'bad_response'
  /** The caller passed something the contract cannot carry (caught before any request). */
  | 'bad_argument';

/** Details of a failed call; every field is safe to log (no key, secret or password). */
export interface ClientErrorDetails {
  /** The request, as `METHOD URL` with secret query values replaced by `***`; '' when none was made. */
  request: string;
  /** The HTTP status, or null when no answer came. */
  status?: number | null;
  /** The error code the server's body carried, e.g. `unauthorized`, or null. */
  serverCode?: string | null;
  /** The error message the server's body carried, or null. */
  serverMessage?: string | null;
}

/** A failed SDK call: HTTP status, the server's error code/message, and the request it was. */
export class ClientError extends AppError<ClientErrorCode> {
  /** The request, as `METHOD URL` with secret query values redacted. */
  readonly request: string;
  /** The HTTP status, or null when no answer came. */
  readonly status: number | null;
  /** The server's error code from its body (`{"error":{"code"}}`), or null. */
  readonly serverCode: string | null;
  /** The server's error message from its body, or null. */
  readonly serverMessage: string | null;

  constructor(code: ClientErrorCode, message: string, details: ClientErrorDetails, options?: ErrorOptions) {
    super(code, details.request ? `${details.request}: ${message}` : message, options);
    this.request = details.request;
    this.status = details.status ?? null;
    this.serverCode = details.serverCode ?? null;
    this.serverMessage = details.serverMessage ?? null;
  }
}
