// One delivery run: from the record after the cursor, in db_id order, one request per record (or
// per batch), until the backlog is empty or a request fails. Each acknowledged request moves the
// cursor in the store before the next is sent, so a crash resends at most the request in flight.
// Log rows of acknowledged requests are written in batches (per chunk of records and at the end
// of the run); a failure is logged at once. While a request is on the wire the next one is
// prepared (at a chunk's end: the log written, settings and the right to deliver checked, the
// next chunk, asked for when the chunk started, taken); it is sent once the current one's cursor
// write has committed.
//
//   settings ─┐
//   cursor ───┼─> listWireRowsAfter ─> toWireRecord ─> buildPushRequest ─> HttpSender
//             └──────── advance cursor (one statement, by the leader) <── 2xx ──┘
import type { Clock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import { listWireRowsAfter } from '../record-store.js';
import { type TimeFormatter, toWireRecord, type WireRow } from '../wire-record.js';
import type { DeliveryLeadership } from './delivery-leadership.js';
import { appendDeliveryLogs, type DeliveryAttempt } from './delivery-log.js';
import type { HttpSender } from './http-sender.js';
import { parkRecords } from './parked.js';
import type { PushLogger } from './push-logger.js';
import { advanceCursor, initializeCursor, readPushState, recordFailure } from './push-state.js';
import { buildPushRequest, type PushRequest } from './request-body.js';
import type { CdrPushSettings } from './settings.js';
import { findCdrPushSettings } from './settings-store.js';

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
  /** Records parked in this run (the `park` poison policy). */
  parked: number;
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
  /** The right to deliver: checked after each chunk, and the cursor advances through it. */
  leadership?: DeliveryLeadership | undefined;
  /** The destination to deliver to (default 1, the seed's CDR API section). */
  destination?: number;
}

// Rows read per query: at least 500, and at least four requests' worth in batch mode. Settings,
// leadership and the buffered log are refreshed once per chunk.
const CHUNK = 500;
const chunkRows = (batch: number) => Math.max(CHUNK, batch * 4);
// Within a chunk, the right to deliver (the SQLite lease) is renewed at least this often.
const LEADER_RECHECK_MS = 5_000;

/** Sends the backlog once (see the top of this file). */
export async function runDelivery(ctx: RunContext): Promise<RunResult> {
  const pending: DeliveryAttempt[] = [];
  try {
    return await deliver(ctx, pending);
  } finally {
    await appendDeliveryLogs(ctx.store.db, pending, ctx.destination ?? 1);
  }
}

/** A request ready to leave: the records it carries and their range. */
interface Prepared {
  readonly group: readonly WireRow[];
  readonly request: PushRequest;
  readonly first: number;
  readonly last: number;
  /** Where its records start in the chunk they were read in. */
  readonly at: number;
  /** The settings it was built with (those of its chunk). */
  readonly settings: CdrPushSettings;
}

async function deliver(ctx: RunContext, pending: DeliveryAttempt[]): Promise<RunResult> {
  const { store, clock, leadership } = ctx;
  const destination = ctx.destination ?? 1;
  const result: RunResult = { outcome: 'drained', acknowledged: 0, parked: 0, requests: 0 };
  let settings = await findCdrPushSettings(store, destination);
  if (settings === null || !settings.enabled) return { ...result, outcome: 'disabled' };
  let state = await readPushState(store.db, destination);
  if (state.ackedDbId === null) {
    await initializeCursor(store.db, settings.send_history, destination);
    state = await readPushState(store.db, destination);
  }
  let cursor = state.ackedDbId ?? 0;
  const generation = state.generation;
  let leaderCheckedMs = clock.now();
  const advance = (to: number, atMs: number) =>
    leadership
      ? leadership.advance({ generation, from: cursor }, to, atMs, destination)
      : advanceCursor(store.db, { generation, from: cursor }, to, atMs, undefined, destination);
  // The request for rows[at..at+batch) with the settings of their chunk.
  const build = (rows: readonly WireRow[], at: number, s: CdrPushSettings): Prepared => {
    const group = rows.slice(at, at + s.batch_size);
    const request = buildPushRequest(
      s,
      group.map((r) => toWireRecord(r, ctx.time)),
      undefined,
      clock.now(),
    );
    return {
      group,
      request,
      first: group[0]?.db_id as number,
      last: group[group.length - 1]?.db_id as number,
      at,
      settings: s,
    };
  };
  let rows = await listWireRowsAfter(store, cursor, chunkRows(settings.batch_size));
  if (rows.length === 0) return result;
  let chunkSettings: CdrPushSettings = settings;
  let next: Prepared = build(rows, 0, chunkSettings);
  // The next chunk, asked for when a full chunk starts (on PostgreSQL the read then runs beside
  // the chunk's exchanges; on SQLite it is done before the first of them leaves, while the
  // receiver is busy). Rows become visible in db_id order, so reading early skips nothing.
  let prefetch: { after: number; size: number; rows: Promise<WireRow[]> } | undefined;
  for (;;) {
    if (ctx.shouldStop?.()) return { ...result, outcome: 'stopped' };
    // A slow receiver can make a chunk outlast a lease: renew it on time as well.
    if (leadership && clock.now() - leaderCheckedMs >= LEADER_RECHECK_MS) {
      if (!(await leadership.acquire())) return { ...result, outcome: 'not_leader' };
      leaderCheckedMs = clock.now();
    }
    const current = next;
    const { group, request, first, last } = current;
    const atMs = clock.now();
    const sending = ctx.sender.send(request);
    if (current.at === 0 && rows.length === chunkRows(chunkSettings.batch_size)) {
      const after = (rows[rows.length - 1] as WireRow).db_id;
      const size = rows.length;
      const read = listWireRowsAfter(store, after, size);
      // Unused when this chunk ends early (a failure, a stop): its error then matters to no one.
      read.catch(() => undefined);
      prefetch = { after, size, rows: read };
    }
    // While this request is on the wire (the receiver's time, in which this process would only
    // wait), the next one is prepared; at the end of a chunk that is the chunk's housekeeping
    // too: the buffered log rows written, the settings and the right to deliver checked again,
    // and the next chunk read. The next request leaves only after this one's cursor write.
    let following: Prepared | undefined;
    let stop: RunOutcome | undefined;
    if (current.at + chunkSettings.batch_size < rows.length) {
      following = build(rows, current.at + chunkSettings.batch_size, chunkSettings);
    } else {
      await appendDeliveryLogs(store.db, pending.splice(0), destination);
      settings = await findCdrPushSettings(store, destination);
      if (settings === null || !settings.enabled) stop = 'disabled';
      else if (leadership && !(await leadership.acquire())) stop = 'not_leader';
      else {
        leaderCheckedMs = clock.now();
        chunkSettings = settings;
        const size = chunkRows(chunkSettings.batch_size);
        rows =
          prefetch?.after === last && prefetch.size === size
            ? await prefetch.rows
            : await listWireRowsAfter(store, last, size);
        prefetch = undefined;
        if (rows.length > 0) following = build(rows, 0, chunkSettings);
      }
    }
    const answer = await sending;
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
    let parked = false;
    if (!answer.ok) {
      await appendDeliveryLogs(store.db, pending.splice(0), destination);
      const refusals = await recordFailure(store, attempt, destination);
      if (current.settings.poison_policy !== 'park' || refusals < current.settings.poison_after) {
        ctx.logger?.warn(
          { destination, first_db_id: first, last_db_id: last, status: answer.status, error: answer.error },
          'cdr push: request not acknowledged; retrying from this record next run',
        );
        return { ...result, outcome: 'failed' };
      }
      // The same 4xx poison_after times in a row: set the record(s) aside and go on.
      await parkRecords(
        store,
        group.map((r) => r.db_id),
        attempt,
        destination,
      );
      ctx.logger?.warn(
        { destination, first_db_id: first, last_db_id: last, status: answer.status, refusals },
        'cdr push: record refused again and again; parked (resend it from the parked list)',
      );
      parked = true;
    } else pending.push(attempt);
    if (!(await advance(last, atMs))) return { ...result, outcome: 'moved' };
    cursor = last;
    if (parked) result.parked += group.length;
    else result.acknowledged += group.length;
    if (stop) return { ...result, outcome: stop };
    if (!following) return result;
    next = following;
  }
}
