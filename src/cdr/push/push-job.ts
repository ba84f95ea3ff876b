// The delivery job `branchgate serve` runs. Each destination has a loop of its own: every interval
// (read from its settings each time, and counted from the end of the previous run) it checks the
// right to deliver and runs one delivery to that destination, so a slow or failing destination
// never delays another. A supervisor looks for added and removed destinations every few seconds
// (a removed destination's loop ends by itself) and gives the right to deliver up while no
// destination is enabled. An instance without the right asks again every few seconds, so it takes
// over soon after the holder dies. stop() ends every loop after its request in flight and gives the
// right up.
import { type Clock, systemClock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import { TimeFormatter } from '../wire-record.js';
import { createDeliveryLeadership, DEFAULT_LEASE_TTL_MS } from './delivery-leadership.js';
import { DELIVERY_LOG_KEEP, listDeliveryLog, pruneDeliveryLog } from './delivery-log.js';
import { type RunResult, runDelivery } from './delivery-run.js';
import { HttpSender } from './http-sender.js';
import { PushAlert } from './push-alert.js';
import type { PushLogger } from './push-logger.js';
import { backlogOf, readPushState } from './push-state.js';
import { findCdrPushSettings, listDestinations } from './settings-store.js';

/** Waits ms milliseconds or until the signal aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Options of the job; everything but the store has a default. */
export interface CdrPushJobOptions {
  store: Store;
  clock?: Clock;
  logger?: PushLogger;
  /** IANA time zone the records' times are rendered in (default UTC). */
  timeZone?: string;
  /** Per-request timeout (default 10 s). */
  requestTimeoutMs?: number;
  /** SQLite lease length (default 30 s). */
  leaseTtlMs?: number;
  /** The store's postgres:// URL (the --db value): required on PostgreSQL for the advisory lock. */
  databaseUrl?: string | undefined;
  /** How often an instance that is not delivering asks again (default 5 s, at most the interval). */
  standbyRetryMs?: number;
  /** How often the job looks for added destinations (default: standbyRetryMs). */
  destinationsPollMs?: number;
  /** The wait between a destination's runs (default: a timer). */
  sleep?: Sleep;
  /** Called after each run (for logs and tests). */
  onRun?: (result: RunResult, destination: number) => void;
}

/** A running job. */
export interface CdrPushJob {
  /** Ends every loop after its request in flight and releases the right to deliver. */
  stop(): Promise<void>;
}

const timerSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Starts the delivery loops in the background. */
export function startCdrPushJob(options: CdrPushJobOptions): CdrPushJob {
  const { store, logger } = options;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? timerSleep;
  const standbyMs = options.standbyRetryMs ?? 5_000;
  const pollMs = options.destinationsPollMs ?? standbyMs;
  const abort = new AbortController();
  const sender = new HttpSender(
    options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs },
  );
  const time = new TimeFormatter(options.timeZone ?? 'UTC');
  const leadership = createDeliveryLeadership(store, clock, {
    leaseTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    databaseUrl: options.databaseUrl,
  });
  const loops = new Map<number, Promise<void>>();

  /** One run for a destination; the wait before the next, or null when it was removed. */
  async function tick(destination: number, alert: PushAlert): Promise<number | null> {
    const settings = await findCdrPushSettings(store, destination);
    if (settings === null) return null;
    const intervalMs = settings.interval_seconds * 1000;
    if (!settings.enabled) return Math.min(intervalMs, standbyMs);
    if (!(await leadership.acquire())) return Math.min(intervalMs, standbyMs);
    const result = await runDelivery({
      store,
      sender,
      time,
      clock,
      logger,
      shouldStop: () => abort.signal.aborted,
      leadership,
      destination,
    });
    options.onRun?.(result, destination);
    const state = await readPushState(store.db, destination);
    if (state.failingSinceMs !== null) {
      const [last] = await listDeliveryLog(store, 1, destination);
      await alert.check(
        store,
        settings,
        { failingSinceMs: state.failingSinceMs, lastError: last?.error ?? '' },
        await backlogOf(store, state),
        clock.now(),
        logger,
        destination,
      );
    }
    if (result.acknowledged > 0) {
      logger?.info(
        { destination, records: result.acknowledged, requests: result.requests, outcome: result.outcome },
        'cdr push run',
      );
    }
    await pruneDeliveryLog(store, DELIVERY_LOG_KEEP, destination);
    return result.outcome === 'moved' ? 0 : intervalMs;
  }

  function startLoop(destination: number): void {
    const alert = new PushAlert();
    const loop = (async () => {
      while (!abort.signal.aborted) {
        let waitMs: number;
        try {
          const next = await tick(destination, alert);
          if (next === null) break;
          waitMs = next;
        } catch (err) {
          logger?.error(
            { destination, error: (err as Error).message },
            'cdr push run failed; trying again later',
          );
          waitMs = standbyMs;
        }
        if (waitMs > 0) await sleep(waitMs, abort.signal);
      }
    })().finally(() => loops.delete(destination));
    loops.set(destination, loop);
  }

  async function supervise(): Promise<void> {
    const destinations = await listDestinations(store);
    for (const d of destinations) if (!loops.has(d.id)) startLoop(d.id);
    if (!destinations.some((d) => d.settings.enabled)) await leadership.release();
  }

  const supervisor = (async () => {
    while (!abort.signal.aborted) {
      try {
        await supervise();
      } catch (err) {
        logger?.error(
          { error: (err as Error).message },
          'cdr push: cannot read the destinations; trying again',
        );
      }
      await timerSleep(pollMs, abort.signal);
    }
    await Promise.all(loops.values());
    await leadership.release().catch(() => {
      // a lease not released expires by itself; the stop goes on
    });
    sender.close();
  })();

  return {
    async stop() {
      abort.abort();
      await supervisor;
    },
  };
}
