// Runs pass 1 over byte ranges in worker threads. The TypeScript sources run through tsx, so each
// worker first registers tsx's loader in its own thread (loader hooks are per thread in Node 20),
// then imports check-worker. Where that is not possible (no import.meta.resolve, e.g. under a test
// runner's own loader), canUseCheckThreads() says so and the caller checks in its own thread.
import { closeSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckRangeInput, CheckRangeResult } from './check-range.js';

/** Whether this process can start check workers. */
export function canUseCheckThreads(): boolean {
  if (typeof import.meta.resolve !== 'function') return false;
  try {
    import.meta.resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

/** Checks one range in a new worker thread; `onBytes` hears the bytes of the range read so far. */
export function checkRangeInThread(
  input: CheckRangeInput,
  onBytes: (bytesRead: number) => void = () => {
    // no progress to show
  },
): Promise<CheckRangeResult> {
  const ext = extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./check-worker${ext}`, import.meta.url).href;
  const boot =
    ext === '.ts'
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`
      : `import(${JSON.stringify(entry)})`;
  return new Promise((resolve, reject) => {
    // A larger young generation: the check allocates a string per field, and scavenges were a
    // sixth of a worker's time with the default.
    const worker = new Worker(boot, {
      eval: true,
      workerData: input,
      resourceLimits: { maxYoungGenerationSizeMb: 96 },
    });
    let result: CheckRangeResult | undefined;
    worker.on('message', (message: CheckRangeResult | number) => {
      if (typeof message === 'number') onBytes(message);
      else result = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`check worker for bytes ${input.start}-${input.end} exited with code ${code}`));
    });
  });
}

/**
 * Splits [0, size) into up to `parts` ranges that start just after an LF, so each holds whole
 * lines; ranges never are empty (a small file gives fewer parts).
 */
export function splitAtLines(
  path: string,
  size: number,
  parts: number,
): Array<{ start: number; end: number }> {
  const starts = [0];
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.alloc(64 * 1024);
    for (let i = 1; i < parts; i++) {
      let at = Math.max(Math.floor((size * i) / parts), (starts[starts.length - 1] as number) + 1);
      let next = -1;
      while (at < size && next === -1) {
        const n = readSync(fd, probe, 0, probe.length, at);
        if (n <= 0) break;
        const lf = probe.subarray(0, n).indexOf(0x0a);
        if (lf !== -1) next = at + lf + 1;
        else at += n;
      }
      if (next === -1 || next >= size) break;
      starts.push(next);
    }
  } finally {
    closeSync(fd);
  }
  return starts.map((start, i) => ({ start, end: starts[i + 1] ?? size }));
}
