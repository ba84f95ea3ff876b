// One catalogue of error codes and their HTTP statuses, and the error body every API route answers:
// {"error":{"code":"<snake_case>","message":"<for a person>"}}. Areas with their own envelope
// (the SMS API) map codes with httpStatusOf too.
import type { FastifyReply } from 'fastify';

const STATUS: Record<string, number> = {
  bad_request: 400,
  bad_parameter: 400,
  bad_username: 400,
  bad_password: 400,
  bad_extension: 400,
  bad_setting: 400,
  bad_config: 400,
  bad_record: 400,
  bad_token: 400,
  bad_certificate: 400,
  bad_webhook: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  no_such_user: 404,
  no_such_extension: 404,
  no_such_token: 404,
  no_such_source: 404,
  no_such_webhook: 404,
  method_not_allowed: 405,
  user_exists: 409,
  last_admin: 409,
  source_exists: 409,
  source_from_flag: 409,
  tls_from_flag: 409,
  extension_exists: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  too_many_attempts: 429,
  internal_error: 500,
  store_unavailable: 503,
  unavailable: 503,
};

/** The HTTP status of an error code (400 for a code not in the catalogue: an input error). */
export function httpStatusOf(code: string): number {
  return STATUS[code] ?? 400;
}

/** The error body of the CDR and admin APIs. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** Sends an error body with the catalogue's status for its code (or the given status). */
export function sendError(
  reply: FastifyReply,
  code: string,
  message: string,
  status = httpStatusOf(code),
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error: { code, message } } satisfies ErrorBody);
}
