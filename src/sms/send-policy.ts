// When to try a failed send again: modem errors that pass (no network, timeouts, a port that came
// back) are retried with doubling delays; errors about the message itself end it as `failed`.
import { ModemError } from './modem/index.js';

/** Retry timing of the outbox. */
export interface RetryPolicy {
  /** Delay before the second attempt; doubles each time (default 5000). */
  baseDelayMs: number;
  /** Longest delay between attempts (default 600000). */
  maxDelayMs: number;
  /** Attempts before a message is failed even though its error was transient (default 20). */
  maxAttempts: number;
}

/** Default retry timing. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 5000, maxDelayMs: 600_000, maxAttempts: 20 };

// +CMS ERROR numbers that describe the moment, not the message: network causes of 24.011 E.2
// (38 out of order, 41 temporary failure, 42 congestion, 47 resources unavailable) and 27.005
// 300 ME failure, 314 SIM busy, 331 no network service, 332 network timeout, 500 unknown error.
const TRANSIENT_CMS = new Set([38, 41, 42, 47, 300, 314, 331, 332, 500]);

/** True when an error of a send attempt may go away by itself. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof ModemError)) return false;
  if (err.code === 'cms_error') return err.modemCode === undefined || TRANSIENT_CMS.has(err.modemCode);
  return err.code !== 'bad_argument';
}

/** The delay before attempt number `attempts + 1`, after `attempts` failed ones. */
export function retryDelayMs(policy: RetryPolicy, attempts: number): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}
