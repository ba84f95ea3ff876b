// A closed-loop HTTP load generator in a worker thread (its own event loop, so the server under
// test is not slowed by the client's JavaScript). The loop itself is http-load-worker.mjs.
import { Worker } from 'node:worker_threads';

/** One load run's settings. */
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  requests: number;
  concurrency: number;
}

/** What a load run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  meanLatencyMs: number;
  p50LatencyMs: number;
  p99LatencyMs: number;
  errors: number;
  bytes: number;
}

/** Runs a load in a worker thread and resolves with its result. */
export function loadInWorker(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./http-load-worker.mjs', import.meta.url), { workerData: spec });
    w.once('message', (r: LoadResult) => {
      resolve(r);
      void w.terminate();
    });
    w.once('error', reject);
  });
}
