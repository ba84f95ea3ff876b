// The live CDR sources `serve` runs: started together, stopped together, and read as one list of
// statuses by GET /api/ingest/status, `branchgate ingest status` and the console.
import type { IngestSource, IngestSourceStatus, IngestStatusReader } from './ingest-source.js';

/** Owns any number of live sources. */
export class IngestManager implements IngestStatusReader {
  private readonly sources: IngestSource[] = [];
  private running = false;

  /** Adds sources; they start at once when the manager already runs. */
  add(sources: readonly IngestSource[]): void {
    for (const s of sources) {
      if (this.sources.some((x) => x.id === s.id)) throw new Error(`ingest source ${s.id} is added twice`);
      this.sources.push(s);
      if (this.running) s.start();
    }
  }

  start(): void {
    this.running = true;
    for (const s of this.sources) s.start();
  }

  /** Stops every source; resolves when none has a store write in flight. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.sources.map((s) => s.stop()));
  }

  statuses(): IngestSourceStatus[] {
    return this.sources.map((s) => s.status());
  }
}
