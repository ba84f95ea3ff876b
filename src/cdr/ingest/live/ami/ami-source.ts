// A live CDR source over the Asterisk Manager Interface:
//
//   connect -> banner -> Action: Login (Events: cdr) -> Response: Success -> Event: Cdr blocks
//     -> AmiCdrReader -> queue -> storeSourceRows (one transaction per batch) -> counted
//   Response: Error -> login_refused, retried slowly; TCP closed or refused -> reconnecting with
//   capped exponential backoff; store down -> store_unavailable, the queue is kept and retried.
//
// What can be lost: AMI does not replay. Calls that end while branchgate is down or disconnected,
// and events still queued in memory when the process is killed, are not sent again; pair this
// source with a Master.csv follower or the table poller to lose nothing (docs/cdr-ingest.md).
import { connect, type Socket } from 'node:net';
import { type Clock, systemClock } from '../../../../shared/clock.js';
import type { Store } from '../../../../store/index.js';
import { createTimeParser } from '../../asterisk-time.js';
import type { RecordingUrlBuilder } from '../../recording-url.js';
import { GroupMemory } from '../group-memory.js';
import type { IngestSource, IngestSourceStatus } from '../ingest-source.js';
import { type PollTimers, realTimers } from '../poll-timers.js';
import { type IngestLog, StatusTracker, silentIngestLog } from '../status-tracker.js';
import { type LiveRow, NO_POSITION, storeSourceRows } from '../store-source-rows.js';
import { createAmiCdrReader } from './ami-cdr-row.js';
import { type AmiFields, AmiParser } from './ami-parser.js';
import type { AmiSourceSpec } from './ami-source-spec.js';

/** Reconnect timings in ms. */
export interface AmiBackoff {
  /** First wait after a dropped or refused connection (default 1000), doubled up to maxMs. */
  initialMs: number;
  /** Longest wait between connection attempts (default 30000). */
  maxMs: number;
  /** Wait after the exchange refused the login (default 60000): a wrong secret will not fix itself soon. */
  loginRefusedMs: number;
  /** How long the banner and the login answer may take (default 10000). */
  loginTimeoutMs: number;
  /** Wait before storing again after the store failed (default 1000). */
  storeRetryMs: number;
}

/** What an AMI source needs. */
export interface AmiSourceOptions {
  /** Builds recording_url (serve --recording-url); recordingfile as it is without. */
  recordingUrl?: RecordingUrlBuilder | undefined;
  spec: AmiSourceSpec;
  store: Store;
  clock?: Clock;
  log?: IngestLog;
  backoff?: Partial<AmiBackoff>;
  timers?: PollTimers;
  /** Records per store transaction at most (default 500). */
  batch?: number;
}

const DEFAULT_BACKOFF: AmiBackoff = {
  initialMs: 1000,
  maxMs: 30_000,
  loginRefusedMs: 60_000,
  loginTimeoutMs: 10_000,
  storeRetryMs: 1000,
};

/** Past this many queued records the socket is paused until the store catches up. */
const HIGH_WATER = 10_000;

/** One AMI connection that stores every Cdr event it is sent. */
export class AmiSource implements IngestSource {
  readonly id: string;
  private readonly spec: AmiSourceSpec;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly timers: PollTimers;
  private readonly backoff: AmiBackoff;
  private readonly batch: number;
  private readonly tracker: StatusTracker;
  private readonly readCdr: ReturnType<typeof createAmiCdrReader>;
  /** Recent calls, for initial_destination. */
  private readonly groups = new GroupMemory();
  private readonly recordingUrl: RecordingUrlBuilder | undefined;
  private socket: Socket | null = null;
  private timer: unknown = null;
  private loginTimer: unknown = null;
  private retryMs: number;
  private stopped = true;
  private queue: LiveRow[] = [];
  private flushing: Promise<void> | null = null;
  private storeTimer: unknown = null;
  /** Cdr events seen on this source, to say where a refused one was. */
  private events = 0;

  constructor(options: AmiSourceOptions) {
    this.recordingUrl = options.recordingUrl;
    this.spec = options.spec;
    this.id = options.spec.id;
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.batch = options.batch ?? 500;
    this.retryMs = this.backoff.initialMs;
    this.tracker = new StatusTracker(
      this.id,
      'ami',
      options.spec.target,
      this.clock,
      options.log ?? silentIngestLog,
    );
    this.readCdr = createAmiCdrReader(createTimeParser(options.spec.timezone));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.timer, this.loginTimer, this.storeTimer]) if (t) this.timers.clearTimeout(t);
    this.timer = this.loginTimer = this.storeTimer = null;
    this.socket?.destroy();
    this.socket = null;
    await this.flushing;
    this.tracker.setState('stopped');
  }

  status(): IngestSourceStatus {
    return this.tracker.snapshot();
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = connect({ host: this.spec.host, port: this.spec.port });
    this.socket = socket;
    const parser = new AmiParser();
    let loggedIn = false;
    let refused: string | null = null;
    socket.setNoDelay(true);
    this.loginTimer = this.timers.setTimeout(() => {
      this.tracker.problem(`no login answer within ${this.backoff.loginTimeoutMs} ms`);
      socket.destroy();
    }, this.backoff.loginTimeoutMs);

    socket.on('data', (chunk: Buffer) => {
      for (const frame of parser.push(chunk)) {
        if (frame.kind === 'banner') {
          socket.write(
            `Action: Login\r\nActionID: branchgate-login\r\nUsername: ${oneLine(this.spec.username)}\r\n` +
              `Secret: ${oneLine(this.spec.secret)}\r\nEvents: cdr\r\n\r\n`,
          );
        } else if (frame.kind === 'discarded') {
          this.tracker.rejected(`${this.spec.target} stream byte ${frame.offset}`, frame.reason);
        } else if (!loggedIn && frame.fields.has('response')) {
          if (this.loginTimer) this.timers.clearTimeout(this.loginTimer);
          this.loginTimer = null;
          if (frame.fields.get('response')?.toLowerCase() === 'success') {
            loggedIn = true;
            this.retryMs = this.backoff.initialMs;
            this.tracker.setState('connected');
          } else {
            refused = frame.fields.get('message') ?? 'no reason given';
            socket.destroy();
          }
        } else if (frame.fields.get('event')?.toLowerCase() === 'cdr') {
          this.onCdr(frame.fields);
        }
        // Anything else (other events, answers to nothing we asked) is not ours: ignored.
      }
    });
    socket.on('error', (err) => {
      if (!refused) this.tracker.problem(`${this.spec.target}: ${err.message}`);
    });
    socket.on('close', () => {
      if (this.loginTimer) this.timers.clearTimeout(this.loginTimer);
      this.loginTimer = null;
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      let wait: number;
      if (refused !== null) {
        this.tracker.problem(`login as "${this.spec.username}" refused: ${refused}`, 'login_refused');
        wait = this.backoff.loginRefusedMs;
      } else {
        if (loggedIn) this.tracker.problem(`${this.spec.target}: connection closed`);
        this.tracker.setState('reconnecting');
        wait = this.retryMs;
        this.retryMs = Math.min(this.retryMs * 2, this.backoff.maxMs);
      }
      this.timer = this.timers.setTimeout(() => {
        this.timer = null;
        this.connect();
      }, wait);
    });
  }

  private onCdr(fields: AmiFields): void {
    const n = ++this.events;
    const result = this.readCdr(fields, n);
    if (!result.ok) {
      this.tracker.rejected(
        `${this.spec.target} Cdr event ${n} (UniqueID ${fields.get('uniqueid') ?? '?'})`,
        result.reason,
      );
      return;
    }
    this.queue.push({ row: result.row, fields: [] });
    if (this.queue.length >= HIGH_WATER) this.socket?.pause();
    this.flush();
  }

  /** Stores what is queued, one batch at a time; on failure waits and tries the same batch again. */
  private flush(): void {
    if (this.flushing || this.storeTimer || this.queue.length === 0) return;
    this.flushing = (async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, this.batch);
        try {
          const r = await storeSourceRows(
            this.store,
            batch,
            NO_POSITION,
            this.clock.now(),
            this.groups,
            this.recordingUrl,
          );
          this.queue.splice(0, batch.length);
          this.tracker.stored(r.inserted, r.duplicates, (batch[batch.length - 1] as LiveRow).row.end);
          if (this.tracker.state === 'store_unavailable')
            this.tracker.setState(this.socket ? 'connected' : 'reconnecting');
        } catch (err) {
          this.tracker.problem(`store unavailable: ${(err as Error).message}`, 'store_unavailable');
          if (!this.stopped) {
            this.storeTimer = this.timers.setTimeout(() => {
              this.storeTimer = null;
              this.flush();
            }, this.backoff.storeRetryMs);
          }
          return;
        }
      }
      if (this.socket?.isPaused()) this.socket.resume();
    })().finally(() => {
      this.flushing = null;
      // Events that came in as the loop ended.
      if (!this.stopped) this.flush();
    });
  }
}

/** A header value on one line: CR and LF would end the header (and smuggle another). */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, '');
}
