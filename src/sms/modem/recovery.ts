// Recovery after a command timed out or the port vanished: hold the queue, close, wait, reopen,
// re-run start-up, release the queue. Delays double from reopenDelayMs up to reopenDelayMaxMs and
// attempts go on until stop(); queued work waits (bounded by queueTimeoutMs), nothing is dropped.
import type { ResolvedModemOptions } from './modem-options.js';
import type { Scheduler, Timer } from './scheduler.js';
import type { ModemStatus } from './startup.js';

/** What recovery needs from the modem. */
export interface RecoveryHooks {
  scheduler: Scheduler;
  options: ResolvedModemOptions;
  /** Closes and reopens the port and runs the start-up recipe. */
  reopen(): Promise<ModemStatus>;
  /** The modem came back. */
  onRecovered(status: ModemStatus): void;
  /** One attempt failed; another follows after `nextDelayMs`. */
  onAttemptFailed(error: unknown, attempt: number, nextDelayMs: number): void;
}

/** Runs at most one recovery at a time. */
export class Recovery {
  private active = false;
  private stopped = false;
  private timer: Timer | undefined;

  constructor(private readonly hooks: RecoveryHooks) {}

  /** True while a recovery is under way. */
  get recovering(): boolean {
    return this.active;
  }

  /** Starts a recovery unless one is already running. */
  trigger(): void {
    if (this.active || this.stopped) return;
    this.active = true;
    this.schedule(this.hooks.options.reopenDelayMs, 1);
  }

  /** Cancels any pending attempt; no new recovery starts afterwards until resume(). */
  stop(): void {
    this.stopped = true;
    this.active = false;
    if (this.timer !== undefined) this.hooks.scheduler.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** Allows recoveries again (after a new start()). */
  resume(): void {
    this.stopped = false;
  }

  private schedule(delayMs: number, attempt: number): void {
    this.timer = this.hooks.scheduler.setTimer(delayMs, () => {
      this.timer = undefined;
      void this.attempt(delayMs, attempt);
    });
  }

  private async attempt(delayMs: number, attempt: number): Promise<void> {
    if (this.stopped) return;
    try {
      const status = await this.hooks.reopen();
      if (this.stopped) return;
      this.active = false;
      this.hooks.onRecovered(status);
    } catch (err) {
      if (this.stopped) return;
      const next = Math.min(delayMs * 2, this.hooks.options.reopenDelayMaxMs);
      this.hooks.onAttemptFailed(err, attempt, next);
      this.schedule(next, attempt + 1);
    }
  }
}
