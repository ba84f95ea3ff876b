// Log options: pino JSON lines; request URLs with secrets in the query string redacted; no
// headers, cookies or bodies are logged at all.
import type { FastifyLoggerOptions, FastifyRequest } from 'fastify';

const SECRET_PARAMS = /([?&](?:key|auth|password|secret|token|api_key)=)[^&]*/gi;

/** A URL with the values of secret-bearing query parameters replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

/** Fastify logger options for a level ('silent' turns logging off). */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): FastifyLoggerOptions | false {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
