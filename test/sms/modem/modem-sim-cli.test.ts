// `branchgate modem-sim --pty`: prints the pty path, and the engine (through serialport) can start
// on it and read the message given with --deliver.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createModem, createSerialTransport } from '../../../src/sms/modem/index.js';

const run = promisify(execFile);

describe('branchgate modem-sim', () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('serves the simulator on a pty whose path it prints', async () => {
    dir = await mkdtemp(join(tmpdir(), 'branchgate-sim-cli-'));
    const link = join(dir, 'modem');
    const proc = spawn(
      process.execPath,
      [
        'scripts/branchgate-dev.js',
        'modem-sim',
        '--pty',
        '--link',
        link,
        '--slots',
        '5',
        '--deliver',
        '+15551230001=Gate 2 closed',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    const printed = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      proc.once('exit', (code) => reject(new Error(`modem-sim exited with ${code}`)));
    });
    expect(printed).toBe(link);
    const modem = createModem({ transport: createSerialTransport({ path: printed }) });
    try {
      const status = await modem.start();
      expect(status.storage).toEqual({ name: 'SM', used: 1, total: 5 });
      const [message] = await modem.listMessages();
      expect(message?.decoded).toMatchObject({
        kind: 'deliver',
        sender: { number: '+15551230001' },
        text: 'Gate 2 closed',
      });
    } finally {
      await modem.stop();
    }
  });

  it('says what is wrong with a bad flag and exits 1', async () => {
    const err = await run(process.execPath, [
      'scripts/branchgate-dev.js',
      'modem-sim',
      '--pty',
      '--slots',
      '0',
    ]).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 1,
      stderr: 'branchgate: modem-sim: --slots must be an integer 1..255, got "0"\n',
    });
  });
});
