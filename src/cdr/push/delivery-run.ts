// One delivery run: from the record after the cursor, in db_id order, one request per record (or
// per batch), until the backlog is empty or a request fails. Each acknowledged request moves the
// cursor in the store before the next is sent, so a crash resends at most the request in flight.
//
//   settings ─┐
//   cursor ───┼─> listCdrRecordsAfter ─> toWireRecord ─> buildPushRequest ─> HttpSender
//             └────────── recordAck (cursor + log, one transaction) <── 2xx ──┘
import type { Clock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import { listCdrRecordsAfter } from '../record-store.js';
import { type TimeFormatter, toWireRecord } from '../wire-record.js';
import type { DeliveryAttempt } from './delivery-log.js';
import type { HttpSender } from './http-sender.js';
import type { PushLogger } from './push-logger.js';
import { initializeCursor, readPushState, recordAck, recordFailure } from './push-state.js';
import { buildPushRequest } from './request-body.js';
import { loadCdrPushSettings } from './settings-store.js';

/** Why a run ended. */
export type RunOutcome =
  | 'drained' // nothing left to send
  | 'failed' // a request was not acknowledged; the next run retries it
  | 'disabled' // delivery is off (or was switched off during the run)
  | 'moved' // the cursor was moved by someone else (a replay): start again from it
  | 'stopped' // the job is stopping
  | 'not_leader'; // another instance holds the right to deliver

/** What a run did. */
export interface RunResult {
  outcome: RunOutcome;
  /** Records acknowledged in this run. */
  acknowledged: number;
  requests: number;
}

/** What a run needs. */
export interface RunContext {
  store: Store;
  sender: HttpSender;
  time: TimeFormatter;
  clock: Clock;
  logger?: PushLogger | undefined;
  /** Checked before each request. */
  shouldStop?: () => boolean;
  /** Checked after each chunk of records; false ends the run. */
  stillLeader?: () => Promise<boolean>;
}

const CHUNK = 500;

/** Sends the backlog once (see the top of this file). */
export async function runDelivery(ctx: RunContext): Promise<RunResult> {
  const { store, clock } = ctx;
  const result: RunResult = { outcome: 'drained', acknowledged: 0, requests: 0 };
  let settings = await loadCdrPushSettings(store);
  if (!settings.enabled) return { ...result, outcome: 'disabled' };
  let state = await readPushState(store.db);
  if (state.ackedDbId === null) {
    await initializeCursor(store.db, settings.send_history);
    state = await readPushState(store.db);
  }
  let cursor = state.ackedDbId ?? 0;
  const generation = state.generation;
  for (;;) {
    const batch = settings.batch_size;
    const rows = await listCdrRecordsAfter(store, cursor, batch * Math.ceil(CHUNK / batch));
    if (rows.length === 0) return result;
    for (let i = 0; i < rows.length; i += batch) {
      if (ctx.shouldStop?.()) return { ...result, outcome: 'stopped' };
      const group = rows.slice(i, i + batch);
      const wire = group.map((r) => toWireRecord(r, ctx.time));
      const first = group[0]?.db_id as number;
      const last = group[group.length - 1]?.db_id as number;
      const atMs = clock.now();
      const answer = await ctx.sender.send(buildPushRequest(settings, wire));
      result.requests++;
      const attempt: DeliveryAttempt = {
        atMs,
        kind: 'delivery',
        firstDbId: first,
        lastDbId: last,
        records: group.length,
        status: answer.status,
        latencyMs: answer.latencyMs,
        error: answer.error,
      };
      if (!answer.ok) {
        await recordFailure(store, attempt);
        ctx.logger?.warn(
          { first_db_id: first, last_db_id: last, status: answer.status, error: answer.error },
          'cdr push: request not acknowledged; retrying from this record next run',
        );
        return { ...result, outcome: 'failed' };
      }
      if (!(await recordAck(store, { generation, from: cursor }, last, attempt))) {
        return { ...result, outcome: 'moved' };
      }
      cursor = last;
      result.acknowledged += group.length;
    }
    settings = await loadCdrPushSettings(store);
    if (!settings.enabled) return { ...result, outcome: 'disabled' };
    if (ctx.stillLeader && !(await ctx.stillLeader())) return { ...result, outcome: 'not_leader' };
  }
}
