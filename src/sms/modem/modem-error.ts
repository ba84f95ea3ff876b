// The one error class of the modem layer. Its code says what went wrong, `command` which AT command
// was on the wire; the stack is the caller's (where the operation was asked for), not the timer's.
import { AppError } from '../../shared/errors.js';

/** Why a modem operation failed. */
export type ModemErrorCode =
  | 'timeout'
  | 'error'
  | 'cms_error'
  | 'cme_error'
  | 'port_closed'
  | 'open_failed'
  | 'queue_timeout'
  | 'sim_not_ready'
  | 'bad_response'
  | 'bad_argument'
  | 'not_started'
  | 'stopped';

/** Details carried by a ModemError. */
export interface ModemErrorDetails {
  /** The AT command as written (without a PDU payload). */
  command?: string;
  /** The number of a +CMS ERROR / +CME ERROR, when the modem gave one. */
  modemCode?: number;
  cause?: unknown;
}

/** A failed AT command or modem operation. */
export class ModemError extends AppError<ModemErrorCode> {
  /** The AT command that failed, if one was on the wire. */
  readonly command: string | undefined;
  /** The +CMS/+CME error number, if any. */
  readonly modemCode: number | undefined;

  constructor(code: ModemErrorCode, message: string, details: ModemErrorDetails = {}) {
    super(code, details.command === undefined ? message : `${details.command}: ${message}`, {
      cause: details.cause,
    });
    this.command = details.command;
    this.modemCode = details.modemCode;
  }
}

/** A stack captured where an operation was requested, to graft onto an error raised later. */
export type CallSite = { readonly stack: string };

/** Captures the current stack (minus the frames of `above`). */
export function captureCallSite(above: (...args: never[]) => unknown): CallSite {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, above);
  return { stack: holder.stack ?? '' };
}

/** Gives err the stack of the call site, keeping its own first line (name and message). */
export function withCallSite<E extends Error>(err: E, site: CallSite): E {
  const frames = site.stack.indexOf('\n');
  err.stack = `${err.name}: ${err.message}${frames < 0 ? '' : site.stack.slice(frames)}`;
  return err;
}
