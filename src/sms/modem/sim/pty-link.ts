// Serves a simulated modem on a real pseudo-terminal, so serialport, gammu or minicom can open it:
// socat creates the pty (at a stable symlink) and relays it to its stdio, which the simulator is
// attached to.   host tool ──/dev/pts/N──▶ socat ──stdio──▶ SimulatedModem
// dropPort() kills socat (the device vanishes); plugIn() starts a new one on the same link path.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import type { SimulatedModem } from './sim-types.js';

/** A simulator served on a pty. */
export interface PtyLink {
  /** The stable path to open (a symlink to the current /dev/pts/N). */
  readonly path: string;
  /** The pty device behind the link right now. */
  readonly device: string | undefined;
  /** Stops socat and detaches the simulator. */
  close(): Promise<void>;
}

/** Options of servePty. */
export interface ServePtyOptions {
  /** Symlink path for the pty (default: a fresh name in the temp directory). */
  link?: string;
  /** The socat binary (default "socat"). */
  socat?: string;
}

let counter = 0;

/** Starts socat and attaches the simulator to it; resolves once the pty exists. */
export async function servePty(sim: SimulatedModem, options: ServePtyOptions = {}): Promise<PtyLink> {
  const path = options.link ?? join(tmpdir(), `branchgate-modem-${process.pid}-${++counter}`);
  const socat = options.socat ?? 'socat';
  let child: ChildProcess | undefined;
  let device: string | undefined;
  let closed = false;

  const start = async (): Promise<void> => {
    const proc = spawn(socat, ['-d', '-d', `pty,raw,echo=0,link=${path}`, 'STDIO'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = proc;
    device = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const onData = (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /PTY is (\S+)/.exec(stderr);
        if (m?.[1] !== undefined && stderr.includes('starting data transfer loop')) {
          proc.stderr?.off('data', onData);
          resolve(m[1]);
        }
      };
      proc.stderr?.on('data', onData);
      proc.once('error', (err) => reject(new Error(`cannot start ${socat}: ${err.message}`)));
      proc.once('exit', (code) =>
        reject(new Error(`${socat} exited (${code}) before the pty was ready: ${stderr.trim()}`)),
      );
    });
    if (!existsSync(path)) throw new Error(`socat reported ${device} but ${path} does not exist`);
    if (proc.stdout === null || proc.stdin === null) throw new Error('socat stdio not piped');
    sim.attach(Duplex.from({ readable: proc.stdout, writable: proc.stdin }));
  };

  const stop = (): Promise<void> => {
    const proc = child;
    child = undefined;
    device = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };

  const onUnplugged = () => {
    void stop();
  };
  const onPlugged = () => {
    if (!closed)
      void start().catch(() => {
        // the next reconnect tries again; closing ends the loop
      });
  };
  sim.on('unplugged', onUnplugged);
  sim.on('plugged', onPlugged);
  await start();

  return {
    path,
    get device() {
      return device;
    },
    async close() {
      closed = true;
      sim.off('unplugged', onUnplugged);
      sim.off('plugged', onPlugged);
      await stop();
    },
  };
}
