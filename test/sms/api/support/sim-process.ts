// Starts sim-host.ts as a child process and talks to it: deliver messages, read the SIM's state.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { SimFaults } from '../../../../src/sms/modem/index.js';
import { REPO_ROOT } from '../../../support/serve-process.js';

/** A simulated modem running in its own process on a pty. */
export interface SimProcess {
  /** The pty path to give `serve --modem`. */
  path: string;
  deliver(from: string, text: string): Promise<number[]>;
  state(): Promise<{ stored: number; held: number }>;
  faults(faults: Partial<SimFaults>): Promise<void>;
  /** Lets the next `pass` submits through, then refuses `fail` of them with +CMS ERROR 331. */
  plan(pass: number, fail: number): Promise<void>;
  /** Every part the simulated network accepted, in order. */
  sent(): Promise<
    { to: string; text: string; concat: { reference: number; total: number; sequence: number } | undefined }[]
  >;
  stop(): Promise<void>;
}

/** Starts a simulated modem with `slots` SIM slots; +CMGL order is shuffled from `seed`, and a
 * `flakyDelete` share of AT+CMGD fail without deleting. */
export async function startSimProcess(slots: number, seed: number, flakyDelete = 0): Promise<SimProcess> {
  const proc: ChildProcess = spawn(
    process.execPath,
    [
      resolve(REPO_ROOT, 'bin/run-ts.js'),
      resolve(import.meta.dirname, 'sim-host.ts'),
      '--slots',
      String(slots),
      '--seed',
      String(seed),
      '--flaky-delete',
      String(flakyDelete),
    ],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const waiting = new Map<number, (result: unknown) => void>();
  let ready: (path: string) => void = () => {};
  const path = new Promise<string>((res, rej) => {
    ready = res;
    proc.once('exit', (code) => rej(new Error(`sim-host exited with ${code} before it was ready`)));
  });
  if (!proc.stdout || !proc.stdin) throw new Error('sim-host stdio not piped');
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const msg = JSON.parse(line) as { event?: string; path?: string; id?: number; result?: unknown };
    if (msg.event === 'ready' && msg.path) ready(msg.path);
    else if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  let next = 0;
  const call = <T>(command: object): Promise<T> =>
    new Promise((res) => {
      const id = ++next;
      waiting.set(id, (r) => {
        waiting.delete(id);
        res(r as T);
      });
      proc.stdin?.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  return {
    path: await path,
    deliver: (from, text) => call<number[]>({ cmd: 'deliver', from, text }),
    state: () => call<{ stored: number; held: number }>({ cmd: 'state' }),
    sent: () => call({ cmd: 'sent' }),
    plan: async (pass, fail) => {
      await call({ cmd: 'plan', pass, fail });
    },
    faults: async (faults) => {
      // undefined (clear the switch) travels as null.
      await call({
        cmd: 'faults',
        faults: Object.fromEntries(Object.entries(faults).map(([k, v]) => [k, v ?? null])),
      });
    },
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.stdin?.end();
      const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
