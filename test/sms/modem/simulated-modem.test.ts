// The simulator on its own, driven with raw AT text over its in-memory link: command-line parsing,
// echo, pluggable behaviours, unknown commands, prompt cancel with ESC, storage limits.
import type { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  createManualScheduler,
  createSimulatedModem,
  type SimulatedModem,
} from '../../../src/sms/modem/index.js';
import { parseCommandLine } from '../../../src/sms/modem/sim/sim-command-line.js';

function talk(sim: SimulatedModem): { link: Duplex; say: (text: string) => Promise<string> } {
  const link = sim.connect();
  let received = '';
  link.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  return {
    link,
    async say(text: string) {
      received = '';
      link.write(Buffer.from(text, 'latin1'));
      for (let i = 0; i < 10; i++) await nextTurn();
      return received;
    },
  };
}

describe('simulator command lines', () => {
  it('splits chained basic commands and ;-separated extended commands', () => {
    expect(parseCommandLine('ATE0V1')?.map((c) => [c.name, c.op, c.args])).toEqual([
      ['E', 'exec', ['0']],
      ['V', 'exec', ['1']],
    ]);
    expect(
      parseCommandLine('AT+CMGF=0;+CSCA="+44,1;2",145;+CPMS?')?.map((c) => [c.name, c.op, c.args]),
    ).toEqual([
      ['+CMGF', 'set', ['0']],
      ['+CSCA', 'set', ['+44,1;2', '145']],
      ['+CPMS', 'read', []],
    ]);
    expect(parseCommandLine('AT+CMGL=?')?.[0]).toMatchObject({ name: '+CMGL', op: 'test' });
    expect(parseCommandLine('AT')).toEqual([{ name: '', op: 'exec', args: [], raw: 'AT' }]);
    expect(parseCommandLine('hello')).toBeUndefined();
  });
});

describe('simulated modem', () => {
  it('echoes until ATE0 and answers in V1 format', async () => {
    const sim = createSimulatedModem({ clock: createManualScheduler() });
    const { say } = talk(sim);
    expect(await say('AT+CGMI\r')).toBe('AT+CGMI\r\r\nbranchgate\r\n\r\nOK\r\n');
    expect(await say('ATE0\r')).toBe('ATE0\r\r\nOK\r\n');
    expect(await say('AT+CSQ\r')).toBe('\r\n+CSQ: 21,99\r\n\r\nOK\r\n');
  });

  it('answers unknown commands with ERROR and records them', async () => {
    const sim = createSimulatedModem({ clock: createManualScheduler(), echo: false });
    const { say } = talk(sim);
    expect(await say('AT+FOO=1\r')).toBe('\r\nERROR\r\n');
    expect(sim.unknownCommands).toEqual(['+FOO=1']);
  });

  it('uses a plugged-in behaviour instead of the default one', async () => {
    const sim = createSimulatedModem({
      clock: createManualScheduler(),
      echo: false,
      behaviours: { '+CGMM': () => ({ lines: ['EC25'], final: 'OK' }) },
    });
    const { say } = talk(sim);
    expect(await say('AT+CGMM\r')).toBe('\r\nEC25\r\n\r\nOK\r\n');
  });

  it('prompts for a PDU without a line end and cancels it on ESC', async () => {
    const sim = createSimulatedModem({ clock: createManualScheduler(), echo: false });
    const { say } = talk(sim);
    expect(await say('AT+CMGS=20\r')).toBe('\r\n> ');
    expect(await say('0011\x1b')).toBe('\r\nOK\r\n');
    expect(sim.sent).toEqual([]);
  });

  it('rejects a PDU whose length does not match AT+CMGS with +CMS ERROR: 304', async () => {
    const sim = createSimulatedModem({ clock: createManualScheduler(), echo: false });
    const { say } = talk(sim);
    await say('AT+CMGS=5\r');
    expect(await say('0001000B915155674523F10000\x1a')).toBe('\r\n+CMS ERROR: 304\r\n');
  });

  it('answers +CPIN? with SIM busy in the +CMEE format asked for', async () => {
    const sim = createSimulatedModem({ clock: createManualScheduler(), echo: false, simBusyQueries: 3 });
    const { say } = talk(sim);
    expect(await say('AT+CPIN?\r')).toBe('\r\nERROR\r\n');
    await say('AT+CMEE=2\r');
    expect(await say('AT+CPIN?\r')).toBe('\r\n+CME ERROR: SIM busy\r\n');
    await say('AT+CMEE=1\r');
    expect(await say('AT+CPIN?\r')).toBe('\r\n+CME ERROR: 14\r\n');
    expect(await say('AT+CPIN?\r')).toBe('\r\n+CPIN: READY\r\n\r\nOK\r\n');
  });

  it('refuses new links while unplugged and accepts them after plugIn()', () => {
    const sim = createSimulatedModem({ clock: createManualScheduler() });
    const link = sim.connect();
    sim.dropPort();
    expect(link.destroyed).toBe(true);
    expect(() => sim.connect()).toThrow('simulated modem is unplugged');
    sim.plugIn();
    expect(sim.connect().destroyed).toBe(false);
  });

  it('rejects a storage size outside 1..255', () => {
    expect(() => createSimulatedModem({ slots: 0 })).toThrow('storage size must be 1..255, got 0');
  });
});
