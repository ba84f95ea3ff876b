// Worker-thread entry of the import's pass 1: checks the byte range it is given (workerData, a
// CheckRangeInput) and posts back the CheckRangeResult. Started by check-threads.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckRangeInput, checkRange } from './check-range.js';

const result = await checkRange(workerData as CheckRangeInput);
parentPort?.postMessage(result);
