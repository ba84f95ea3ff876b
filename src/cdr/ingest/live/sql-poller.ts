// The existing-CDR-table poller: reads a FreePBX/Asterisk cdr table (MariaDB/MySQL or PostgreSQL)
// read-only and stores each row once.
//
//   poll: fromEnd = watermark - window; pages of rows with calldate >= fromEnd - max-call and
//         calldate + duration >= fromEnd, in calldate order -> rows not seen in this window ->
//         readTableRow -> store rows + new watermark (max end read) in one transaction
//
// Asterisk inserts a row when the call ends, with calldate = its start, so the watermark is on the
// end (calldate + duration), and the window re-reads what ended shortly before the newest end read:
// a row committed late (up to `window` after a later-ending row became visible) is still found.
// Rows read again are skipped by their key in memory, and after a restart by their record
// identity in the store. docs/cdr-ingest.md ("Existing CDR table") has the argument.

import { type Clock, systemClock } from '../../../shared/clock.js';
import type { Store } from '../../../store/index.js';
import { createTimeParser, type TimeParser } from '../asterisk-time.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import { CdrTableError } from './cdr-table-error.js';
import type { CdrTableReader, TableRow } from './cdr-table-reader.js';
import { GroupMemory } from './group-memory.js';
import { loadIngestPosition, saveIngestPosition } from './ingest-position.js';
import type { IngestSource, IngestSourceStatus } from './ingest-source.js';
import { openMysqlCdrTable } from './mysql-cdr-table.js';
import { type PollTimers, realTimers } from './poll-timers.js';
import { openPostgresCdrTable } from './postgres-cdr-table.js';
import type { SqlSourceSpec } from './sql-source-spec.js';
import { type IngestLog, StatusTracker, silentIngestLog } from './status-tracker.js';
import { type LiveRow, storeSourceRows } from './store-source-rows.js';
import { readTableRow, rowKey, rowWhere } from './table-row.js';

/** The poller's saved position: the latest call end read, as the table writes times. */
export interface SqlPosition {
  watermarkEnd: string | null;
}

/** What a poller needs. */
export interface SqlPollerOptions {
  /** Builds recording_url (serve --recording-url); recordingfile as it is without. */
  recordingUrl?: RecordingUrlBuilder | undefined;
  spec: SqlSourceSpec;
  store: Store;
  clock?: Clock;
  log?: IngestLog;
  timers?: PollTimers;
  /** Rows per page (default 500). */
  pageSize?: number;
}

const WALL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** `text` (wall clock) moved by `seconds`, as wall clock: no zone, so no DST step. */
export function wallAdd(text: string, seconds: number): string {
  const ms = Date.parse(`${text.replace(' ', 'T')}Z`) + seconds * 1000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

class StoreUnavailable extends Error {}

/** Polls one CDR table; see the file comment. */
export class SqlPoller implements IngestSource {
  readonly id: string;
  /** Recent calls, for initial_destination. */
  private readonly groups = new GroupMemory();
  private readonly recordingUrl: RecordingUrlBuilder | undefined;
  private readonly spec: SqlSourceSpec;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly timers: PollTimers;
  private readonly pageSize: number;
  private readonly tracker: StatusTracker;
  private reader: CdrTableReader | null = null;
  private parseTime: TimeParser | null = null;
  private pos: SqlPosition | undefined;
  /** Keys of the rows read that a later page or poll can return again, with their times. */
  private readonly seen = new Map<string, { calldate: string; end: string }>();
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private started = false;
  private stopped = false;

  constructor(options: SqlPollerOptions) {
    this.recordingUrl = options.recordingUrl;
    this.spec = options.spec;
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.pageSize = options.pageSize ?? 500;
    this.id = options.spec.id;
    this.tracker = new StatusTracker(
      this.id,
      'sql',
      options.spec.target,
      this.clock,
      options.log ?? silentIngestLog,
    );
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.closeReader();
    this.tracker.setState('stopped');
  }

  status(): IngestSourceStatus {
    return this.tracker.snapshot();
  }

  /** Runs one poll now (also before start(), as tests do); resolves when it is done. */
  async pollNow(): Promise<void> {
    while (this.running) await this.running;
    await this.run();
  }

  private schedule(ms: number): void {
    if (!this.started || this.stopped) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private run(): Promise<void> {
    if (this.running) return this.running;
    const work = (async () => {
      try {
        await this.poll();
      } catch (err) {
        if (err instanceof StoreUnavailable) {
          this.tracker.problem(err.message, 'store_unavailable');
        } else {
          await this.closeReader();
          this.tracker.problem(this.scrub((err as Error).message), 'error');
        }
      }
      this.running = null;
      this.schedule(this.spec.pollMs);
    })();
    this.running = work;
    return work;
  }

  // Driver messages may quote the URL; the password never reaches status or logs.
  private scrub(message: string): string {
    const password = decodeURIComponent(new URL(this.spec.connectUrl).password);
    const text = password ? message.split(password).join('***') : message;
    return `${this.spec.table}: ${text}`;
  }

  private async poll(): Promise<void> {
    if (this.pos === undefined) {
      try {
        this.pos = (await loadIngestPosition<SqlPosition>(this.store.db, this.id)) ?? { watermarkEnd: null };
      } catch (err) {
        throw new StoreUnavailable(`store unavailable: ${(err as Error).message}`);
      }
    }
    const reader = this.reader ?? (await this.openReader());
    const { windowSeconds, maxCallSeconds } = this.spec;
    const startWm = this.pos.watermarkEnd;
    const fromEnd = startWm === null ? null : wallAdd(startWm, -windowSeconds);
    let from = fromEnd === null ? null : wallAdd(fromEnd, -maxCallSeconds);
    let limit = this.pageSize;
    for (;;) {
      const rows = await reader.read({ from, fromEnd, limit });
      await this.take(rows, reader);
      if (rows.length < limit || this.stopped) break;
      const last = (rows[rows.length - 1] as TableRow).calldate;
      // A full page within one calldate second: read a bigger page from the same second.
      if (last === from) limit *= 2;
      else from = last;
      this.forget(from);
    }
    this.forget(null);
    this.tracker.setState('polling');
  }

  // Drops the keys of rows no query can return again: ended before the window, and (while paging)
  // before the page boundary. Keeps memory to the window's rows even while a first poll reads a
  // whole table.
  private forget(pageFrom: string | null): void {
    const wm = (this.pos as SqlPosition).watermarkEnd;
    if (wm === null) return;
    const keepEnd = wallAdd(wm, -this.spec.windowSeconds);
    for (const [k, t] of this.seen) {
      if (t.end < keepEnd && (pageFrom === null || t.calldate < pageFrom)) this.seen.delete(k);
    }
  }

  /** Stores the page's rows not seen before, with the new watermark, in one transaction. */
  private async take(rows: TableRow[], reader: CdrTableReader): Promise<void> {
    const pos = this.pos as SqlPosition;
    let watermark = pos.watermarkEnd;
    const good: LiveRow[] = [];
    const bad: Array<{ where: string; reason: string }> = [];
    const keys: Array<[string, { calldate: string; end: string }]> = [];
    const parse = this.parseTime as TimeParser;
    for (const r of rows) {
      if (WALL.test(r.end) && (watermark === null || r.end > watermark)) watermark = r.end;
      const key = rowKey(r, reader.shape);
      if (this.seen.has(key)) continue;
      keys.push([key, { calldate: r.calldate, end: r.end }]);
      const result = readTableRow(r, reader.shape, parse);
      if (result.ok) good.push(result.live);
      else bad.push({ where: rowWhere(r, reader.shape), reason: result.reason });
    }
    if (keys.length === 0 && watermark === pos.watermarkEnd) return;
    const next: SqlPosition = { watermarkEnd: watermark };
    const now = this.clock.now();
    let stored: { inserted: number; duplicates: number };
    try {
      stored = await storeSourceRows(
        this.store,
        good,
        (trx) => saveIngestPosition(trx, this.id, next, now),
        now,
        this.groups,
        this.recordingUrl,
      );
    } catch (err) {
      throw new StoreUnavailable(`store unavailable: ${(err as Error).message}`);
    }
    this.pos = next;
    for (const [k, t] of keys) this.seen.set(k, t);
    let lastEnd: number | null = null;
    for (const g of good) lastEnd = lastEnd === null ? g.row.end : Math.max(lastEnd, g.row.end);
    this.tracker.stored(stored.inserted, stored.duplicates, lastEnd);
    for (const b of bad) this.tracker.rejected(`table ${this.spec.table} row ${b.where}`, b.reason);
  }

  private async openReader(): Promise<CdrTableReader> {
    const { kind, connectUrl, table } = this.spec;
    try {
      this.reader =
        kind === 'mysql'
          ? await openMysqlCdrTable(connectUrl, table)
          : await openPostgresCdrTable(connectUrl, table);
    } catch (err) {
      if (err instanceof CdrTableError) throw err;
      throw new Error(`cannot read the database: ${(err as Error).message}`, { cause: err });
    }
    this.parseTime = createTimeParser(this.reader.shape.calldateIsInstant ? 'UTC' : this.spec.timezone);
    return this.reader;
  }

  private async closeReader(): Promise<void> {
    const r = this.reader;
    this.reader = null;
    await r?.close().catch(() => {
      // the reader's connection is already gone: nothing left to close
    });
  }
}
