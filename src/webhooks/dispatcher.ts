// Delivers the event log to each webhook, in log order, at least once. Per webhook: the next event
// after its cursor that it subscribes to is POSTed (JSON, Standard Webhooks headers; webhook-id
// `evt_<event id>` is the same on every retry, so receivers de-duplicate on it); a 2xx moves the
// cursor past it (events it does not subscribe to are stepped over), anything else retries that
// same event after a capped, doubling delay while later events wait. The cursor is stored after
// each acknowledgement: a crash repeats at most the request in flight. Sends go through the CDR
// push job's sender (undici, whole-exchange timeout, no redirects). Webhooks do not wait for each
// other.
//
//   events ──> [cursor] ──> payload (+ signatures) ──> HttpSender ──> 2xx: cursor++ | retry later
import type { Selectable } from 'kysely';
import { HttpSender } from '../cdr/push/http-sender.js';
import type { Clock } from '../shared/clock.js';
import { webhookHeaders } from '../shared/standard-webhooks.js';
import { VERSION } from '../shared/version.js';
import { TimeFormatter } from '../shared/wall-time.js';
import { type SmsMessageRow, toWireMessage } from '../sms/message.js';
import type { EventTable, Store, WebhookTable } from '../store/index.js';

/** Where the dispatcher logs. */
export interface WebhookLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What the dispatcher needs. */
export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  timeZone: string;
  log: WebhookLog;
  /** How often the log is looked at when nothing kicks the dispatcher (default 1000 ms). */
  pollMs?: number;
  /** First retry delay, doubling per failure (default 1000 ms), and the longest (default 300000). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

const KEEP_ATTEMPTS = 1000;
const STEP = 200;

/** The body of one delivery: `{type, timestamp, data}` as Standard Webhooks suggests. */
export function eventBody(event: Selectable<EventTable>, dates: TimeFormatter): string {
  const payload = JSON.parse(event.payload) as Record<string, unknown>;
  const data = event.type.startsWith('sms:')
    ? toWireMessage(payload as unknown as SmsMessageRow, dates)
    : payload;
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(Number(event.created_ms)).toISOString(),
    data,
  });
}

/** The webhook-id of an event: the same on every attempt. */
export const webhookIdOf = (eventId: number) => `evt_${eventId}`;

/** Runs the deliveries; kick() after appending an event to deliver it without waiting for the poll. */
export class WebhookDispatcher {
  private readonly sender: HttpSender;
  private readonly dates: TimeFormatter;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly o: DispatcherOptions) {
    this.sender = new HttpSender({ timeoutMs: o.timeoutMs ?? 10_000 });
    this.dates = new TimeFormatter(o.timeZone);
  }

  start(): void {
    this.kick();
  }

  /** Looks at the log now (or right after the pass under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.pass()
      .catch((err: unknown) => this.o.log.warn({ error: String(err) }, 'webhook pass failed; trying again'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
        } else {
          this.timer = setTimeout(() => this.kick(), this.o.pollMs ?? 1000);
          this.timer.unref();
        }
      });
  }

  /** Stops after the request in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.sender.close();
  }

  /** One pass: every webhook that is due delivers what it can, each on its own. */
  async pass(): Promise<void> {
    const now = this.o.clock.now();
    const hooks = await this.o.store.db.selectFrom('webhooks').selectAll().execute();
    await Promise.all(
      hooks
        .filter((h) => h.next_attempt_ms === null || Number(h.next_attempt_ms) <= now)
        .map((h) => this.drain(h)),
    );
  }

  // Delivers a webhook's events until none is left or one fails.
  private async drain(hook: Selectable<WebhookTable>): Promise<void> {
    const { store } = this.o;
    const subscribed = new Set(hook.events.split(' '));
    let cursor = Number(hook.cursor);
    let attempts = Number(hook.attempts);
    const secrets = [hook.secret, hook.previous_secret].filter((s): s is string => s !== null);
    while (!this.stopped) {
      const events = await store.db
        .selectFrom('events')
        .selectAll()
        .where('id', '>', cursor)
        .orderBy('id')
        .limit(STEP)
        .execute();
      if (events.length === 0) return;
      const next = events.find((e) => subscribed.has(e.type));
      if (!next) {
        // Nothing here for this webhook: step over the lot.
        cursor = Number((events.at(-1) as (typeof events)[number]).id);
        await store.db.updateTable('webhooks').set({ cursor }).where('id', '=', hook.id).execute();
        continue;
      }
      const eventId = Number(next.id);
      const body = eventBody(next, this.dates);
      const id = webhookIdOf(eventId);
      const timestamp = Math.floor(this.o.clock.now() / 1000);
      const answer = await this.sender.send({
        method: 'POST',
        url: hook.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': `branchgate/${VERSION}`,
          ...webhookHeaders(secrets, id, timestamp, body),
        },
        body,
      });
      const atMs = this.o.clock.now();
      await store.db
        .insertInto('webhook_attempts')
        .values({
          webhook_id: Number(hook.id),
          event_id: eventId,
          at_ms: atMs,
          status: answer.status,
          latency_ms: Math.round(answer.latencyMs),
          error: answer.error.slice(0, 1000),
        })
        .execute();
      if (answer.ok) {
        cursor = eventId;
        attempts = 0;
        await store.db
          .updateTable('webhooks')
          .set({ cursor, attempts: 0, next_attempt_ms: null, failing_since_ms: null, last_error: null })
          .where('id', '=', hook.id)
          .execute();
        continue;
      }
      attempts++;
      const delay = Math.min(
        (this.o.retryBaseMs ?? 1000) * 2 ** (attempts - 1),
        this.o.retryMaxMs ?? 300_000,
      );
      await store.db
        .updateTable('webhooks')
        .set({
          attempts,
          next_attempt_ms: atMs + delay,
          failing_since_ms: hook.failing_since_ms ?? atMs,
          last_error: answer.error.slice(0, 1000),
        })
        .where('id', '=', hook.id)
        .execute();
      this.o.log.warn(
        { webhook: Number(hook.id), event: id, attempts, retryInMs: delay, error: answer.error },
        'webhook delivery failed',
      );
      await this.prune(Number(hook.id));
      return;
    }
  }

  private async prune(webhookId: number): Promise<void> {
    const keep = await this.o.store.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .offset(KEEP_ATTEMPTS)
      .limit(1)
      .executeTakeFirst();
    if (keep)
      await this.o.store.db
        .deleteFrom('webhook_attempts')
        .where('webhook_id', '=', webhookId)
        .where('id', '<=', keep.id)
        .execute();
  }
}
