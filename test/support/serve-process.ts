// Spawns `branchgate serve` as a real child process and waits for its "listening on" line; makes
// API tokens through the real `branchgate token create` for such a server's store.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** The CLI run from the sources (scripts/branchgate-dev.js), so tests never run a stale dist/. */
export const BIN = resolve(REPO_ROOT, 'scripts/branchgate-dev.js');

/** A running serve process. */
export interface ServeProcess {
  proc: ChildProcess;
  url: string;
  httpUrl: string | undefined;
  /** Everything it printed on stdout so far. */
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `branchgate serve <args>` and resolves once it listens (rejects if it exits first). */
export function spawnServe(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--log-level', 'warn', ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${out}\n${err}`));
    }, options.timeoutMs ?? 30_000);
    const check = () => {
      const m = /listening on (https:\/\/\S+)/.exec(out);
      const needsHttp = args.includes('--http-listen');
      const h = /also listening on (http:\/\/\S+)/.exec(out);
      if (m && (!needsHttp || h)) {
        clearTimeout(timer);
        proc.stdout?.off('data', check);
        resolvePromise({
          proc,
          url: m[1] as string,
          httpUrl: h?.[1],
          output: () => out,
          stop: (signal = 'SIGTERM') => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
            return exited;
          },
        });
      }
    };
    proc.stdout?.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${out}\n${err}`));
    });
  });
}

/**
 * Creates an API token with `branchgate token create NAME --scope SCOPE` against a store (`store`:
 * `['--data-dir', DIR]` or `['--db', URL]`) and returns the `bgt_` secret it prints once.
 */
export async function createTokenWithCli(
  name: string,
  scope: string,
  store: readonly string[],
): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    BIN,
    'token',
    'create',
    name,
    '--scope',
    scope,
    ...store,
  ]);
  const token = /bgt_\S+/.exec(stdout)?.[0];
  if (!token) throw new Error(`token create printed no token: ${stdout}`);
  return token;
}
