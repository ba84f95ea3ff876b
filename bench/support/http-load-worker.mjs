// Worker thread body of bench/support/http-load.ts (plain JS: workers do not inherit the tsx
// loader). A closed loop: `concurrency` keep-alive connections each send the next request as soon
// as the previous answer is read, `requests` in all; posts back rate, latencies, errors.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

async function runLoad(spec) {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const latencies = [];
  let next = 0;
  let errors = 0;
  let bytes = 0;
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request(spec.url, { agent, headers: spec.headers }, (res) => {
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - t0);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const loop = async () => {
    while (next++ < spec.requests) await one();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requestsPerSecond: spec.requests / seconds,
    meanLatencyMs: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    p50LatencyMs: at(0.5),
    p99LatencyMs: at(0.99),
    errors,
    bytes,
  };
}

runLoad(workerData).then((r) => parentPort.postMessage(r));
