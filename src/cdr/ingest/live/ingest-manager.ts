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

  /** Stops and forgets one source; false when there is none with that id. */
  async remove(id: string): Promise<boolean> {
    const at = this.sources.findIndex((s) => s.id === id);
    if (at < 0) return false;
    const [source] = this.sources.splice(at, 1);
    await source?.stop();
    return true;
  }

  /** Whether a source with this id runs. */
  has(id: string): boolean {
    return this.sources.some((s) => s.id === id);
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
