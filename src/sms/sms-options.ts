// The SMS services' tunables, with defaults, read from BRANCHGATE_SMS_* environment variables by
// `serve` (docs/sms.md lists them). Times in milliseconds.
import { AppError } from '../shared/errors.js';
import { checkCountryCode } from './request-fields.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './send-policy.js';

/** Everything the SMS services can be tuned with. */
export interface SmsOptions {
  /** How long send-one waits for the modem before answering `queued` (default 20000). */
  sendWaitMs: number;
  /** The most parts a message to send may need (default 10). */
  maxParts: number;
  /** Safety-net poll of the modem's storage and of the outbox (default 30000). */
  pollMs: number;
  /** How long received parts wait for the rest of their message (default 3600000). */
  partTimeoutMs: number;
  /** How often the modem's health (signal, registration, SIM, storage) is polled (default 30000). */
  statusPollMs: number;
  /** Country calling code national destinations take (`49`); none: national numbers are refused. */
  defaultCountryCode?: string | undefined;
  retry: RetryPolicy;
}

/** The defaults. */
export const DEFAULT_SMS_OPTIONS: SmsOptions = {
  sendWaitMs: 20_000,
  maxParts: 10,
  pollMs: 30_000,
  partTimeoutMs: 3_600_000,
  statusPollMs: 30_000,
  retry: DEFAULT_RETRY_POLICY,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, max = 2 ** 31): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new AppError('bad_config', `${name} "${raw}": expected an integer from 1 to ${max}`);
  }
  return Number(raw);
}

/** Options from BRANCHGATE_SMS_* variables; a malformed value is a bad_config error naming it. */
export function smsOptionsFromEnv(env: NodeJS.ProcessEnv): SmsOptions {
  const d = DEFAULT_SMS_OPTIONS;
  return {
    sendWaitMs: positive(env, 'BRANCHGATE_SMS_SEND_WAIT_MS', d.sendWaitMs),
    maxParts: positive(env, 'BRANCHGATE_SMS_MAX_PARTS', d.maxParts, 255),
    pollMs: positive(env, 'BRANCHGATE_SMS_POLL_MS', d.pollMs),
    partTimeoutMs: positive(env, 'BRANCHGATE_SMS_PART_TIMEOUT_MS', d.partTimeoutMs),
    statusPollMs: positive(env, 'BRANCHGATE_SMS_STATUS_POLL_MS', d.statusPollMs),
    defaultCountryCode: env.BRANCHGATE_SMS_DEFAULT_COUNTRY_CODE
      ? checkCountryCode(env.BRANCHGATE_SMS_DEFAULT_COUNTRY_CODE, 'BRANCHGATE_SMS_DEFAULT_COUNTRY_CODE')
      : undefined,
    retry: {
      baseDelayMs: positive(env, 'BRANCHGATE_SMS_RETRY_MS', d.retry.baseDelayMs),
      maxDelayMs: positive(env, 'BRANCHGATE_SMS_RETRY_MAX_MS', d.retry.maxDelayMs),
      maxAttempts: positive(env, 'BRANCHGATE_SMS_MAX_ATTEMPTS', d.retry.maxAttempts),
    },
  };
}
