// The live CDR sources of one `serve`: those its flags give and those stored at run time, built
// on the server's store, clock and log. The log is the app's, known only once the app is built, so
// sources are built (and started) from then on.
import type { Clock } from '../../../shared/clock.js';
import type { Store } from '../../../store/index.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import { AmiSource } from './ami/ami-source.js';
import type { AmiSourceSpec } from './ami/ami-source-spec.js';
import { CsvFollower } from './csv-follower.js';
import type { CsvSourceSpec } from './csv-source-spec.js';
import { IngestManager } from './ingest-manager.js';
import type { IngestSource } from './ingest-source.js';
import { SqlPoller } from './sql-poller.js';
import type { SqlSourceSpec } from './sql-source-spec.js';
import type { IngestLog } from './status-tracker.js';
import { type CheckedSpec, StoredIngestSources } from './stored-sources.js';

/** What the sources are built from. */
export interface LiveSourcesInput {
  store: Store;
  clock: Clock;
  recordingUrl: RecordingUrlBuilder | undefined;
  ami: readonly AmiSourceSpec[];
  csv: readonly CsvSourceSpec[];
  sql: readonly SqlSourceSpec[];
}

/** The manager (statuses), the run-time registry, and start/stop. */
export interface LiveSources {
  manager: IngestManager;
  stored: StoredIngestSources;
  /** Builds and starts every source with the app's log. */
  start(log: IngestLog): Promise<void>;
  stop(): Promise<void>;
}

/** Sets up the live sources of one server (nothing runs before start()). */
export function createLiveSources(input: LiveSourcesInput): LiveSources {
  const { store, clock, recordingUrl } = input;
  const manager = new IngestManager();
  let log: IngestLog | undefined;
  const build = (c: CheckedSpec): IngestSource => {
    const common = { store, clock, recordingUrl, ...(log ? { log } : {}) };
    if (c.kind === 'ami') return new AmiSource({ spec: c.spec, ...common });
    if (c.kind === 'csv') return new CsvFollower({ spec: c.spec, ...common });
    return new SqlPoller({ spec: c.spec, ...common });
  };
  const fromFlags: CheckedSpec[] = [
    ...input.ami.map((spec) => ({ kind: 'ami' as const, spec })),
    ...input.csv.map((spec) => ({ kind: 'csv' as const, spec })),
    ...input.sql.map((spec) => ({ kind: 'sql' as const, spec })),
  ];
  const stored = new StoredIngestSources(store, manager, build, fromFlags);
  return {
    manager,
    stored,
    async start(appLog) {
      log = appLog;
      manager.add(fromFlags.map(build));
      await stored.load();
      manager.start();
    },
    stop: () => manager.stop(),
  };
}
