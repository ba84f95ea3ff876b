// The one error handler of the app: expected errors (AppError, schema validation, body parsing)
// become their catalogue status with a message for a person; anything else is logged and answered
// 500 "internal error" with no detail, so internals never leak.
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.js';
import { sendError } from './error-catalogue.js';

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
};

/** Installs the error and not-found handlers on an app (or an encapsulated plugin context). */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return sendError(reply, err.code, err.message);
    if (err.validation) {
      return sendError(reply, 'bad_request', `${err.validationContext ?? 'request'}: ${err.message}`);
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) return sendError(reply, mapped, err.message);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, 'bad_request', err.message, err.statusCode);
    }
    request.log.error({ err }, 'request failed');
    return sendError(reply, 'internal_error', 'internal error', 500);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
  );
}
