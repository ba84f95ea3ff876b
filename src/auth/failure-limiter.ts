// Counts failed authentications per client address and blocks a client that keeps failing
// (rate-limiter-flexible, in memory per instance): 10 failures in 15 minutes block for 15 minutes.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Limits for FailureLimiter. */
export interface FailureLimits {
  /** Failures allowed within the window before the client is blocked. */
  maxFailures: number;
  windowSeconds: number;
  blockSeconds: number;
}

/** The default limits: 10 failures per 15 minutes, then a 15-minute block. */
export const DEFAULT_FAILURE_LIMITS: FailureLimits = {
  maxFailures: 10,
  windowSeconds: 900,
  blockSeconds: 900,
};

/** Per-key failure counter. */
export class FailureLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(limits: FailureLimits = DEFAULT_FAILURE_LIMITS) {
    this.limiter = new RateLimiterMemory({
      points: limits.maxFailures,
      duration: limits.windowSeconds,
      blockDuration: limits.blockSeconds,
    });
  }

  /** Seconds until the key may try again, or 0 when it is not blocked. */
  async blockedFor(key: string): Promise<number> {
    const res = await this.limiter.get(key);
    if (!res || res.remainingPoints > 0) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Records a failure. */
  async fail(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
    }
  }

  /** Forgets the failures of a key after a success. */
  async succeed(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}
