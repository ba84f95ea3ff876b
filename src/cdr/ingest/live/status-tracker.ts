// The mutable status of one live source (state, counts, lag, last error), kept by the source and
// read as an IngestSourceStatus. Problems go to the log too, so the log says what the status says.
import type { Clock } from '../../../shared/clock.js';
import type { IngestSourceKind, IngestSourceState, IngestSourceStatus } from './ingest-source.js';

/** Where a live source writes what happened (pino's shape; the server passes its logger). */
export interface IngestLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A log that drops everything. */
// biome-ignore lint/suspicious/noEmptyBlockStatements: a log that drops everything is empty by definition
export const silentIngestLog: IngestLog = { info() {}, warn() {}, error() {} };

/** Keeps one source's status. */
export class StatusTracker {
  private current: IngestSourceStatus;

  constructor(
    id: string,
    kind: IngestSourceKind,
    target: string,
    private readonly clock: Clock,
    private readonly log: IngestLog,
  ) {
    this.current = {
      id,
      kind,
      target,
      state: 'starting',
      recordsStored: 0,
      duplicates: 0,
      rejected: 0,
      lastRecordAtMs: null,
      lagSeconds: null,
      lastError: null,
    };
  }

  /** A copy of the status now. */
  snapshot(): IngestSourceStatus {
    return { ...this.current, lastError: this.current.lastError && { ...this.current.lastError } };
  }

  get state(): IngestSourceState {
    return this.current.state;
  }

  /** Moves to `state`, logging the change. */
  setState(state: IngestSourceState): void {
    if (this.current.state === state) return;
    this.current.state = state;
    this.log.info({ source: this.current.id, state }, `ingest ${this.current.id}: ${state}`);
  }

  /** Records a problem (already free of secrets) as the last error, and logs it. */
  problem(message: string, state?: IngestSourceState): void {
    this.current.lastError = { message, atMs: this.clock.now() };
    if (state) this.current.state = state;
    this.log.warn(
      { source: this.current.id, state: this.current.state },
      `ingest ${this.current.id}: ${message}`,
    );
  }

  /** Counts one refused input (reported with where it was). */
  rejected(where: string, reason: string): void {
    this.current.rejected++;
    this.problem(`${where}: skipped: ${reason}`);
  }

  /** Counts a stored batch; `lastEnd` is the end (unix seconds) of the last call in it. */
  stored(inserted: number, duplicates: number, lastEnd: number | null): void {
    this.current.recordsStored += inserted;
    this.current.duplicates += duplicates;
    if (inserted > 0) {
      const now = this.clock.now();
      this.current.lastRecordAtMs = now;
      if (lastEnd !== null) this.current.lagSeconds = Math.max(0, Math.round(now / 1000 - lastEnd));
    }
  }
}
