// The shape every live CDR source shares (AMI, Master.csv follower, SQL table poller, HTTP), so
// `serve` can run any number of them and /api/ingest/status, `branchgate ingest status`, the
// console and the metrics can show each one the same way.

/** Which kind of source. */
export type IngestSourceKind = 'ami' | 'csv' | 'sql' | 'http';

/**
 * What a source is doing now. connected / following / polling mean records flow; the others say
 * why they do not.
 */
export type IngestSourceState =
  | 'starting'
  | 'connected'
  | 'following'
  | 'polling'
  | 'reconnecting'
  | 'login_refused'
  | 'file_missing'
  | 'store_unavailable'
  | 'error'
  | 'stopped';

/** The last problem a source had. Its message never contains a secret. */
export interface IngestProblem {
  message: string;
  atMs: number;
}

/** One source's status, as the API and the CLI show it. */
export interface IngestSourceStatus {
  /** Stable id, unique among the running sources, e.g. `ami:pbx.example:5038` (never a secret). */
  id: string;
  kind: IngestSourceKind;
  /** Where it reads from, with any password removed. */
  target: string;
  state: IngestSourceState;
  /** Records this source stored since the server started. */
  recordsStored: number;
  /** Records this source brought that were already stored (by it or another source). */
  duplicates: number;
  /** Inputs refused as malformed (each reported with where it was). */
  rejected: number;
  /** When this source last stored a record (ms), or null. */
  lastRecordAtMs: number | null;
  /** Seconds between the end of the last stored call and its storing, or null. */
  lagSeconds: number | null;
  lastError: IngestProblem | null;
}

/** A running source. */
export interface IngestSource {
  readonly id: string;
  /** Starts working in the background. Runtime problems go to status(), never thrown. */
  start(): void;
  /** Stops; resolves when no store write of this source is in flight. */
  stop(): Promise<void>;
  status(): IngestSourceStatus;
}

/** What the server's other parts (API, console, metrics) read of ingest. */
export interface IngestStatusReader {
  statuses(): IngestSourceStatus[];
}
