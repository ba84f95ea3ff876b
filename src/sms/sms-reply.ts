// The SMS API's envelope: {"status":"success","data":...} and
// {"status":"error","error":{"code","message"}}, with statuses from the server's error catalogue.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { httpStatusOf } from '../server/error-catalogue.js';
import { SmsError } from './sms-error.js';

/** Sends a success body. */
export function sendSmsData(reply: FastifyReply, data: unknown): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send({ status: 'success', data });
}

/** Sends an error body with the catalogue's status for its code (or the given status). */
export function sendSmsError(
  reply: FastifyReply,
  code: string,
  message: string,
  status = httpStatusOf(code),
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ status: 'error', error: { code, message } });
}

const FASTIFY_CODES: Record<string, [code: string, message: string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', 'body: larger than the limit of this API'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Content-Type: send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'Content-Length: does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['bad_request', 'body: empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['bad_request', 'body: not valid JSON'],
};

/** Installs the SMS envelope's error handler on the (encapsulated) SMS plugin. */
export function installSmsErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof SmsError) return sendSmsError(reply, err.code, err.message);
    if (err.validation) {
      const first = err.validation[0];
      const field = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : 'body';
      return sendSmsError(reply, 'bad_request', `${field}: ${first?.message ?? err.message}`);
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) return sendSmsError(reply, mapped[0], mapped[1]);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendSmsError(
        reply,
        err.statusCode === 413 ? 'body_too_large' : 'bad_request',
        `body: ${err.message}`,
        err.statusCode,
      );
    }
    request.log.error({ err }, 'sms request failed');
    return sendSmsError(reply, 'internal_error', 'internal error', 500);
  });
}
