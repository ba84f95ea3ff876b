// The outbox: sends stored `sent` messages through the modem, one at a time, every part in order,
// recording each accepted part so a restart resumes after the last one. Failed attempts are
// retried with backoff (persisted in the row); errors about the message itself end it as failed.
//
//   send-one ──insert(queued)──▶ sms_message ──due──▶ Outbox ──AT+CMGS per part──▶ modem
//                                     ▲──── status, parts_sent, attempts, next_attempt_ms ───┘
import { EventEmitter } from 'node:events';
import type { Store } from '../store/index.js';
import type { SmsMessageRow } from './message.js';
import type { Modem, Scheduler, Timer } from './modem/index.js';
import {
  claimForSending,
  dueOutgoing,
  makeQueuedDue,
  markAttemptFailed,
  markSent,
  nextDueMs,
  recordPartSent,
  requeueInterrupted,
} from './outbox-store.js';
import { encodeSubmit } from './pdu/index.js';
import { isTransient, type RetryPolicy, retryDelayMs } from './send-policy.js';
import { SingleFlight } from './single-flight.js';
import type { SmsLog } from './sms-log.js';

/** What the outbox needs. */
export interface OutboxParams {
  store: Store;
  modem: Modem;
  scheduler: Scheduler;
  retry: RetryPolicy;
  /** Longest sleep between looks at the queue (default 30000). */
  pollMs?: number;
  log: SmsLog;
}

const BATCH = 10;

/** Sends queued messages; see the top of this file. */
export class Outbox {
  private stopped = true;
  private readonly flight = new SingleFlight(() => this.loop(), { enabled: () => !this.stopped });
  private timer: Timer | undefined;
  private readonly attempts = new EventEmitter();
  private readonly onReady = () => {
    void makeQueuedDue(this.p.store, this.p.scheduler.now()).then(
      () => this.kick(),
      (err: unknown) => this.p.log.error({ err }, 'sms outbox: cannot reschedule queued messages'),
    );
  };

  constructor(private readonly p: OutboxParams) {
    this.attempts.setMaxListeners(0);
  }

  /** Requeues what a crash left on the wire, then sends (now and whenever the modem becomes ready). */
  async start(): Promise<void> {
    await requeueInterrupted(this.p.store, this.p.scheduler.now());
    this.stopped = false;
    this.p.modem.on('ready', this.onReady);
    this.kick();
  }

  /** Stops after the part on the wire, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.p.modem.off('ready', this.onReady);
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    await this.flight.idle();
  }

  /** Looks at the queue now (after the current pass, when one runs). */
  kick(): void {
    this.flight.kick();
  }

  /** Resolves when an attempt at message id ends (sent, retry planned or failed), or after ms. */
  waitForAttempt(id: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const event = String(id);
      const done = () => {
        this.p.scheduler.clearTimer(timer);
        this.attempts.off(event, done);
        resolve();
      };
      const timer = this.p.scheduler.setTimer(ms, done);
      this.attempts.on(event, done);
    });
  }

  private async loop(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped || this.p.modem.state !== 'ready') break;
        const due = await dueOutgoing(this.p.store, this.p.scheduler.now(), BATCH);
        for (const row of due) {
          if (this.stopped || this.p.modem.state !== 'ready') break;
          await this.sendOne(row);
        }
        if (due.length < BATCH) break;
      }
    } catch (err) {
      // The store failed: leave the messages as they are and look again after the poll interval.
      this.p.log.error({ err }, 'sms outbox: pass failed');
      await this.schedule(true);
      return;
    }
    await this.schedule(false);
  }

  private async schedule(afterError: boolean): Promise<void> {
    if (this.stopped) return;
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    const poll = this.p.pollMs ?? 30_000;
    let delay = poll;
    // While the modem is away, its 'ready' event brings the next pass; the poll is a safety net.
    if (!afterError && this.p.modem.state === 'ready') {
      try {
        const next = await nextDueMs(this.p.store);
        if (next !== undefined) delay = Math.min(poll, Math.max(0, next - this.p.scheduler.now()));
      } catch {
        // The store is unreachable for now; look again after the poll interval.
      }
    }
    if (this.stopped) return;
    this.timer = this.p.scheduler.setTimer(Math.max(delay, 10), () => this.kick());
  }

  private async sendOne(row: SmsMessageRow): Promise<void> {
    const { store, modem, scheduler } = this.p;
    if (!(await claimForSending(store, row.id))) return;
    try {
      let pdus: ReturnType<typeof encodeSubmit>;
      try {
        // Same text, same reference: a resumed message's remaining parts match those already sent.
        pdus = encodeSubmit({
          to: row.number,
          text: row.message,
          reference: row.id % 256,
          statusReportRequest: true,
        });
      } catch (err) {
        await this.attemptFailed(row, err);
        return;
      }
      for (let i = row.parts_sent; i < pdus.length; i++) {
        const part = pdus[i];
        if (!part) break;
        let mr: number;
        try {
          mr = await modem.sendPdu(part.pdu, part.tpduLength);
        } catch (err) {
          await this.attemptFailed(row, err);
          return;
        }
        if (!(await recordPartSent(store, row.id, i + 1, mr, scheduler.now()))) return;
      }
      await markSent(store, row.id, scheduler.now());
      this.p.log.info({ id: row.id, parts: pdus.length }, 'sms sent');
    } finally {
      this.attempts.emit(String(row.id));
    }
  }

  private async attemptFailed(row: SmsMessageRow, err: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const message = err instanceof Error ? err.message : String(err);
    const retry = isTransient(err) && attempts < this.p.retry.maxAttempts;
    const nextMs = retry ? this.p.scheduler.now() + retryDelayMs(this.p.retry, attempts) : undefined;
    await markAttemptFailed(this.p.store, row.id, attempts, message, nextMs, this.p.scheduler.now());
    this.p.log.warn({ id: row.id, attempts, retry, error: message }, 'sms send attempt failed');
  }
}
