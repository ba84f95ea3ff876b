// Cold start of the installed command: `branchgate --version` (bin/branchgate.js -> dist/) against
// `node -e 0`, and `branchgate serve` until /healthz answers, in alternating rounds of the same run
// (medians). Needs a build: `npm run build` first.
//   node bin/run-ts.js bench/cold-start.ts [rounds]          (target: --version <= 3x node -e 0)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.argv[2] ?? 11);
const BIN = resolve(import.meta.dirname, '../bin/branchgate.js');

function timeRun(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return performance.now() - t0;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const healthy = (port: number) =>
  new Promise<boolean>((done) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.end();
  });

async function serveUntilHealthy(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bg-cold-'));
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawn(
    process.execPath,
    [BIN, 'serve', '--listen', `127.0.0.1:${port}`, '--log-level', 'warn'],
    {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, BRANCHGATE_ADMIN_PASSWORD: 'bench password' },
    },
  );
  try {
    while (!(await healthy(port))) await new Promise((r) => setTimeout(r, 5));
    return performance.now() - t0;
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

timeRun(['-e', '0']);
timeRun([BIN, '--version']);
const node: number[] = [];
const version: number[] = [];
const serve: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) {
    node.push(timeRun(['-e', '0']));
    version.push(timeRun([BIN, '--version']));
  } else {
    version.push(timeRun([BIN, '--version']));
    node.push(timeRun(['-e', '0']));
  }
  if (r < 5) serve.push(await serveUntilHealthy());
}
const n = median(node);
const v = median(version);
const ratio = v / n;
process.stdout.write(
  `medians of ${ROUNDS} alternating rounds: node -e 0 ${n.toFixed(1)} ms; branchgate --version ${v.toFixed(1)} ms ` +
    `(${ratio.toFixed(2)} x, target <= 3: ${ratio <= 3 ? 'met' : 'NOT met'}); ` +
    `serve until /healthz answers (first start: new store, certificate) ${median(serve).toFixed(0)} ms (median of ${serve.length})\n`,
);
if (ratio > 3) process.exitCode = 1;
