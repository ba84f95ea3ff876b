// Worker-thread entry of the import's pass 1: checks the byte range it is given (workerData, a
// CheckRangeInput) and posts back its progress in bytes, then the CheckRangeResult. Started by
// check-threads.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckRangeInput, checkRange } from './check-range.js';

// Progress goes out as numbers (bytes read so far), the result once as an object.
let lastPosted = 0;
const result = await checkRange(
  workerData as CheckRangeInput,
  () => {
    // bad lines come back in the result, not one by one
  },
  (bytes) => {
    if (bytes - lastPosted < 4 * 1024 * 1024) return;
    lastPosted = bytes;
    parentPort?.postMessage(bytes);
  },
);
parentPort?.postMessage(result);
