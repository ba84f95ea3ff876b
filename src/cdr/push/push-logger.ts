// The logger the push job writes to: the subset of pino's API it uses, so a pino logger (or the
// Fastify app's) can be passed as is. Log objects never carry secrets or request headers.

/** A structured logger (pino-compatible). */
export interface PushLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
