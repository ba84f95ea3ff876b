// The few log calls the SMS services make (pino's shape), so they can log through the server's
// logger or stay silent in tests. Never given a password or a request body.

/** A pino-compatible logger subset. */
export interface SmsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A logger that drops everything. */
// biome-ignore lint/suspicious/noEmptyBlockStatements: a log that drops everything is empty by definition
export const silentLog: SmsLog = { info() {}, warn() {}, error() {} };
