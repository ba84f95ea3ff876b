// The Master.csv followers and CDR table pollers a serve configuration asks for, built (not
// started) for whoever runs the live sources.

import type { Clock } from '../../../shared/clock.js';
import type { Store } from '../../../store/index.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import { CsvFollower } from './csv-follower.js';
import type { CsvSourceSpec } from './csv-source-spec.js';
import type { IngestSource } from './ingest-source.js';
import { SqlPoller } from './sql-poller.js';
import type { SqlSourceSpec } from './sql-source-spec.js';
import type { IngestLog } from './status-tracker.js';

/** What the file and table sources are built from. */
export interface FileAndTableSourcesInput {
  csv: readonly CsvSourceSpec[];
  sql: readonly SqlSourceSpec[];
  store: Store;
  clock: Clock;
  log: IngestLog;
  recordingUrl?: RecordingUrlBuilder | undefined;
}

/** One source per --ingest-csv and --ingest-sql, in that order. */
export function fileAndTableSources(input: FileAndTableSourcesInput): IngestSource[] {
  const { store, clock, log, recordingUrl } = input;
  return [
    ...input.csv.map((spec) => new CsvFollower({ spec, store, clock, log, recordingUrl })),
    ...input.sql.map((spec) => new SqlPoller({ spec, store, clock, log, recordingUrl })),
  ];
}
