// The delivery job `branchgate serve` runs: every interval (read from the settings each time, and
// counted from the end of the previous run) it takes the right to deliver and runs one delivery.
// An instance without that right asks again every few seconds, so it takes over soon after the
// holder dies. stop() ends the loop after the request in flight and gives the right up.
import { type Clock, systemClock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import { TimeFormatter } from '../wire-record.js';
import { createDeliveryLeadership, DEFAULT_LEASE_TTL_MS } from './delivery-leadership.js';
import { listDeliveryLog, pruneDeliveryLog } from './delivery-log.js';
import { type RunResult, runDelivery } from './delivery-run.js';
import { HttpSender } from './http-sender.js';
import { PushAlert } from './push-alert.js';
import type { PushLogger } from './push-logger.js';
import { backlogOf, readPushState } from './push-state.js';
import { loadCdrPushSettings } from './settings-store.js';

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
  /** The wait between runs (default: a timer). */
  sleep?: Sleep;
  /** Called after each run (for logs and tests). */
  onRun?: (result: RunResult) => void;
}

/** A running job. */
export interface CdrPushJob {
  /** Ends the loop after the request in flight and releases the right to deliver. */
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

/** Starts the delivery loop in the background. */
export function startCdrPushJob(options: CdrPushJobOptions): CdrPushJob {
  const { store, logger } = options;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? timerSleep;
  const standbyMs = options.standbyRetryMs ?? 5_000;
  const abort = new AbortController();
  const sender = new HttpSender(
    options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs },
  );
  const time = new TimeFormatter(options.timeZone ?? 'UTC');
  const leadership = createDeliveryLeadership(store, clock, {
    leaseTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    databaseUrl: options.databaseUrl,
  });

  const alert = new PushAlert();

  async function tick(): Promise<number> {
    const settings = await loadCdrPushSettings(store);
    const intervalMs = settings.interval_seconds * 1000;
    if (!settings.enabled) {
      await leadership.release();
      return Math.min(intervalMs, standbyMs);
    }
    if (!(await leadership.acquire())) return Math.min(intervalMs, standbyMs);
    const result = await runDelivery({
      store,
      sender,
      time,
      clock,
      logger,
      shouldStop: () => abort.signal.aborted,
      leadership,
    });
    options.onRun?.(result);
    const state = await readPushState(store.db);
    if (state.failingSinceMs !== null) {
      const [last] = await listDeliveryLog(store, 1);
      await alert.check(
        store,
        settings,
        { failingSinceMs: state.failingSinceMs, lastError: last?.error ?? '' },
        await backlogOf(store, state),
        clock.now(),
        logger,
      );
    }
    if (result.acknowledged > 0) {
      logger?.info(
        { records: result.acknowledged, requests: result.requests, outcome: result.outcome },
        'cdr push run',
      );
    }
    await pruneDeliveryLog(store);
    return result.outcome === 'moved' ? 0 : intervalMs;
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      let waitMs: number;
      try {
        waitMs = await tick();
      } catch (err) {
        logger?.error({ error: (err as Error).message }, 'cdr push run failed; trying again later');
        waitMs = standbyMs;
      }
      if (waitMs > 0) await sleep(waitMs, abort.signal);
    }
    await leadership.release().catch(() => {
      // a lease not released expires by itself; the stop goes on
    });
    sender.close();
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
