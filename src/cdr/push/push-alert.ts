// push:failing: when deliveries have failed for longer than the settings' alert_after_seconds
// without a success, the job says so once per failing streak: a `push:failing` warning in the log
// and a `cdr-push:failing` event for webhooks; the status (GET /api/cdr-push/log) and the
// dashboard show the alert while it lasts. A success ends the streak.
import type { Store } from '../../store/index.js';
import { appendEvent } from '../../webhooks/events.js';
import type { PushLogger } from './push-logger.js';
import type { CdrPushSettings } from './settings.js';

/** Whether a failing streak has lasted past the alert threshold at nowMs. */
export function isAlerting(settings: CdrPushSettings, failingSinceMs: number | null, nowMs: number): boolean {
  return (
    failingSinceMs !== null &&
    settings.alert_after_seconds > 0 &&
    nowMs - failingSinceMs >= settings.alert_after_seconds * 1000
  );
}

/** Raises push:failing once per failing streak (remembered by its start); one per destination. */
export class PushAlert {
  private raisedFor: number | null = null;

  async check(
    store: Store,
    settings: CdrPushSettings,
    state: { failingSinceMs: number | null; lastError: string },
    backlog: number,
    nowMs: number,
    logger?: PushLogger,
    destination = 1,
  ): Promise<boolean> {
    if (!isAlerting(settings, state.failingSinceMs, nowMs) || this.raisedFor === state.failingSinceMs)
      return false;
    this.raisedFor = state.failingSinceMs;
    const failingSince = new Date(state.failingSinceMs as number).toISOString();
    logger?.warn(
      { alert: 'push:failing', destination, failingSince, backlog, lastError: state.lastError },
      'push:failing: CDR push has been failing for longer than alert_after_seconds',
    );
    await appendEvent(
      store.db,
      'cdr-push:failing',
      {
        destination,
        name: settings.name,
        url: settings.url,
        failing_since: failingSince,
        backlog,
        last_error: state.lastError,
      },
      nowMs,
    );
    return true;
  }
}
