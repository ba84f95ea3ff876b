// gammu (Debian package) talks to the simulator on a real pty with `connection = at`: it must
// identify the modem, read a message the simulator holds and send one the simulator records.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSimulatedModem,
  type PtyLink,
  type SimulatedModem,
  servePty,
} from '../../../src/sms/modem/index.js';

const run = promisify(execFile);

async function hasProgram(name: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${name}`]);
    return true;
  } catch {
    return false;
  }
}

const gammuPresent = await hasProgram('gammu');
if (!gammuPresent) {
  process.stderr.write(
    '\n*** SKIPPED: gammu interop tests (gammu is not installed; apt-get install gammu) ***\n\n',
  );
}

describe.skipIf(!gammuPresent)('gammu against the simulated modem on a pty', () => {
  let sim: SimulatedModem;
  let pty: PtyLink;
  let dir: string;
  let rc: string;

  const gammu = async (...args: string[]) => {
    const { stdout } = await run('gammu', ['-c', rc, ...args], { timeout: 60_000 });
    return stdout;
  };

  beforeAll(async () => {
    // gammu runs on the wall clock, so the simulator does too (nothing here waits on a timeout).
    sim = createSimulatedModem({ slots: 10 });
    sim.deliver('+15551230001', 'Meet at the north gate at 7');
    pty = await servePty(sim);
    dir = await mkdtemp(join(tmpdir(), 'branchgate-gammu-'));
    rc = join(dir, 'gammurc');
    await writeFile(rc, `[gammu]\nconnection = at\ndevice = ${pty.path}\n`);
  });

  afterAll(async () => {
    await pty?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('identifies the modem', async () => {
    const out = await gammu('identify');
    expect(out).toMatch(/Manufacturer\s+: branchgate/);
    expect(out).toMatch(/IMEI\s+: 356938035643809/);
    expect(out).toMatch(/SIM IMSI\s+: 001010123456789/);
  });

  it('reads the message the simulator holds', async () => {
    const out = await gammu('getallsms');
    expect(out).toContain('"+15551230001"');
    expect(out).toContain('Meet at the north gate at 7');
    expect(out).toMatch(/1 SMS parts in 1 SMS sequences/);
  });

  it('sends a message that the simulator records', async () => {
    await gammu('sendsms', 'TEXT', '+15557650002', '-text', 'Gate open, 3 trucks waiting');
    expect(sim.sent.map((m) => ({ to: m.to, text: m.text }))).toEqual([
      { to: '+15557650002', text: 'Gate open, 3 trucks waiting' },
    ]);
    expect(sim.unknownCommands).not.toContain('+CMGS');
  });
});
