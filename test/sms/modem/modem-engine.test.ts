// The engine against the simulator, over the in-memory link and over a real pty through serialport:
// start-up, one command at a time, noise, errors with the caller's stack, and every fault switch.
import { afterEach, describe, expect, it } from 'vitest';
import { ModemError } from '../../../src/sms/modem/index.js';
import { type Harness, LINKS, openHarness, outcome } from './support/harness.js';

const STARTUP = [
  'AT',
  'ATE0',
  'AT+CMEE=1',
  'AT+CPIN?',
  'AT+CMGF=0',
  'AT+CPMS="SM","SM","SM"',
  'AT+CNMI=2,1,0,1,0',
  'AT+CSCA?',
];

describe.each(LINKS)('modem engine over %s', (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('runs the start-up recipe and reports storage and SMSC', async () => {
    h = await openHarness(kind, { slots: 10, smsc: '+4412345' });
    const ready: unknown[] = [];
    h.modem.on('ready', (s) => ready.push(s));
    const status = await h.modem.start();
    expect(status).toEqual({ storage: { name: 'SM', used: 0, total: 10 }, smsc: '+4412345' });
    expect(h.sim.commands).toEqual(STARTUP);
    expect(h.modem.state).toBe('ready');
    expect(ready).toEqual([status]);
    expect(h.sim.state.echo).toBe(false);
  });

  it('retries AT+CPIN? while the SIM is busy (+CME ERROR: 14), then goes on', async () => {
    h = await openHarness(kind, { simBusyQueries: 2 }, { simBusyRetryMs: 700 });
    const started = outcome(h.modem.start());
    await h.advanceUntil(started.done);
    expect(started.value().storage.total).toBe(30);
    expect(h.sim.commands.filter((c) => c === 'AT+CPIN?')).toHaveLength(3);
  });

  it('fails start-up with sim_not_ready style error when the SIM stays busy', async () => {
    h = await openHarness(kind, { simBusyQueries: 5 }, { simBusyRetries: 2, simBusyRetryMs: 100 });
    const started = outcome(h.modem.start());
    await h.advanceUntil(started.done);
    const err = started.error();
    expect(err).toBeInstanceOf(ModemError);
    expect(err).toMatchObject({ code: 'cme_error', modemCode: 14, command: 'AT+CPIN?' });
    expect(h.modem.state).toBe('stopped');
  });

  it('keeps vendor noise out of command answers and reports it as noise', async () => {
    h = await openHarness(kind, { faults: { noise: true } });
    const noise: string[] = [];
    h.modem.on('noise', (text, reason) => noise.push(`${reason}:${text}`));
    await h.modem.start();
    expect(await h.modem.command('AT+CGMI')).toEqual({ lines: ['branchgate'] });
    expect(await h.modem.command('AT+CSQ')).toEqual({ lines: ['+CSQ: 21,99'] });
    expect(noise).toContain('vendor:^RSSI: 17');
    expect(noise).toContain('vendor:+QIND: "csq",21,99');
    expect(noise).toContain('vendor:SMS DONE');
  });

  it('puts one command on the wire at a time, in the order asked', async () => {
    h = await openHarness(kind, {}, {});
    await h.modem.start();
    h.sim.setFaults({ slowMs: 100 });
    const before = h.sim.commands.length;
    const asked = ['AT+CGMI', 'AT+CGMM', 'AT+CGMR', 'AT+CGSN', 'AT+CIMI'];
    const answers = asked.map((c) => outcome(h?.modem.command(c) ?? Promise.reject(new Error('no harness'))));
    for (let i = 1; i <= asked.length; i++) {
      await h.waitFor(() => h?.sim.commands.length === before + i, `command ${i} on the wire`);
      await h.settle();
      expect(h.sim.commands.length).toBe(before + i);
      h.clock.advance(100);
    }
    await h.waitFor(() => answers.every((a) => a.done()), 'all answers');
    expect(h.sim.commands.slice(before)).toEqual(asked);
    expect(answers.map((a) => a.value().lines)).toEqual([
      ['branchgate'],
      ['SIMULATED-LTE'],
      ['branchgate-sim 1.0'],
      ['356938035643809'],
      ['001010123456789'],
    ]);
  });

  it('answers a slow reply that is still within the timeout', async () => {
    h = await openHarness(kind, { faults: { slowMs: 3000 } }, { commandTimeoutMs: 5000 });
    const started = outcome(h.modem.start());
    await h.advanceUntil(started.done);
    expect(started.value().storage.total).toBe(30);
    expect(h.clock.now() - Date.UTC(2026, 0, 1)).toBe(3000 * STARTUP.length);
  });

  it('still works through a garbage line before every answer', async () => {
    h = await openHarness(kind, { faults: { garbage: true } });
    const discarded: string[] = [];
    h.modem.on('noise', (text, reason) => {
      if (reason === 'discarded') discarded.push(text);
    });
    await h.modem.start();
    expect(await h.modem.command('AT+CGMM')).toEqual({ lines: ['SIMULATED-LTE'] });
    expect(discarded.length).toBeGreaterThanOrEqual(STARTUP.length);
  });

  it('fails a command the modem rejects with a typed error and keeps the caller in the stack', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    async function askForUnknownThing(harness: Harness) {
      return harness.modem.command('AT+NOSUCH');
    }
    const err = await askForUnknownThing(h).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModemError);
    expect(err).toMatchObject({
      code: 'error',
      command: 'AT+NOSUCH',
      message: 'AT+NOSUCH: modem answered ERROR',
    });
    expect((err as Error).stack).toContain('askForUnknownThing');
    expect(h.sim.unknownCommands).toEqual(['+NOSUCH']);
    expect(h.modem.state).toBe('ready');
  });

  it('times out on no answer, then recovers (reopen + start-up) and runs the queued work', async () => {
    h = await openHarness(kind, {}, { commandTimeoutMs: 2000, reopenDelayMs: 500 });
    await h.modem.start();
    const downs: string[] = [];
    h.modem.on('down', (d) => downs.push(d.reason));
    h.sim.setFaults({ noAnswer: true });
    async function askSignal(harness: Harness) {
      return harness.modem.command('AT+CSQ');
    }
    const first = outcome(askSignal(h));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CSQ', 'AT+CSQ on the wire');
    const queued = outcome(h.modem.command('AT+CGMI'));
    h.clock.advance(2000);
    await h.waitFor(first.done, 'the timeout');
    const err = first.error();
    expect(err).toBeInstanceOf(ModemError);
    expect(err).toMatchObject({ code: 'timeout', command: 'AT+CSQ' });
    expect((err as Error).message).toBe('AT+CSQ: no answer: waited 2000 ms for a final result');
    expect((err as Error).stack).toContain('askSignal');
    expect(h.modem.state).toBe('recovering');
    expect(downs).toEqual(['timeout']);
    expect(queued.done()).toBe(false);
    h.sim.setFaults({ noAnswer: false });
    await h.advanceUntil(() => queued.done());
    expect(queued.value()).toEqual({ lines: ['branchgate'] });
    expect(h.modem.state).toBe('ready');
    expect(h.sim.commands.slice(-STARTUP.length - 1)).toEqual([...STARTUP, 'AT+CGMI']);
  });

  it('times out a reply slower than the timeout, then recovers once replies are fast again', async () => {
    h = await openHarness(kind, {}, { commandTimeoutMs: 2000, reopenDelayMs: 500 });
    await h.modem.start();
    h.sim.setFaults({ slowMs: 8000 });
    const slow = outcome(h.modem.command('AT+CGMR'));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CGMR', 'AT+CGMR on the wire');
    h.clock.advance(2000);
    await h.waitFor(slow.done, 'the timeout');
    expect(slow.error()).toMatchObject({ code: 'timeout', command: 'AT+CGMR' });
    h.sim.setFaults({ slowMs: 0 });
    await h.advanceUntil(() => h?.modem.state === 'ready');
    expect(await h.modem.command('AT+CGMM')).toEqual({ lines: ['SIMULATED-LTE'] });
  });

  it('survives a dropped port: the command on the wire fails, queued work waits and runs after replug', async () => {
    h = await openHarness(kind, {}, { reopenDelayMs: 500 });
    await h.modem.start();
    const failedAttempts: string[] = [];
    h.modem.on('recovery-failed', (e) => failedAttempts.push((e as ModemError).code));
    h.sim.setFaults({ noAnswer: true });
    const onWire = outcome(h.modem.command('AT+CSQ'));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CSQ', 'AT+CSQ on the wire');
    const queued = outcome(h.modem.command('AT+CIMI'));
    h.sim.setFaults({ noAnswer: false });
    h.sim.dropPort();
    await h.advanceUntil(onWire.done);
    expect(onWire.error()).toMatchObject({ code: 'port_closed', command: 'AT+CSQ' });
    expect(h.modem.state).toBe('recovering');
    await h.advanceUntil(() => failedAttempts.length >= 2);
    expect(failedAttempts.every((c) => c === 'open_failed')).toBe(true);
    expect(queued.done()).toBe(false);
    h.sim.plugIn();
    await h.advanceUntil(() => queued.done());
    expect(queued.value()).toEqual({ lines: ['001010123456789'] });
    expect(h.modem.state).toBe('ready');
  });

  it('rejects queued work with queue_timeout when the modem never comes back', async () => {
    h = await openHarness(kind, {}, { queueTimeoutMs: 10_000, reopenDelayMs: 1000 });
    await h.modem.start();
    h.sim.dropPort();
    await h.advanceUntil(() => h?.modem.state === 'recovering');
    const queued = outcome(h.modem.command('AT+CGMI'));
    await h.advanceUntil(queued.done);
    expect(queued.error()).toMatchObject({ code: 'queue_timeout', command: 'AT+CGMI' });
    expect(h.modem.state).toBe('recovering');
  });

  it('refuses a command line that would smuggle a second command onto the wire', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    const before = h.sim.commands.length;
    await expect(h.modem.command('AT+CSQ\rAT+CMGD=1,4')).rejects.toMatchObject({
      code: 'bad_argument',
      message: '"AT+CSQ\\rAT+CMGD=1,4": a command is "AT..." in printable ASCII, one line',
    });
    expect(h.sim.commands.length).toBe(before);
  });

  it('rejects work with not_started before start() and stopped after stop()', async () => {
    h = await openHarness(kind);
    await expect(h.modem.command('AT')).rejects.toMatchObject({ code: 'not_started' });
    await h.modem.start();
    h.sim.setFaults({ noAnswer: true });
    const pending = outcome(h.modem.command('AT+CSQ'));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CSQ', 'AT+CSQ on the wire');
    await h.modem.stop();
    await h.waitFor(pending.done, 'the stop');
    expect(pending.error()).toMatchObject({ code: 'stopped' });
  });
});

describe.each(LINKS)('modem engine edge cases over %s', (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('treats a noise-looking line as the answer when it names the command on the wire', async () => {
    h = await openHarness(kind);
    const noise: string[] = [];
    h.modem.on('noise', (text) => noise.push(text));
    await h.modem.start();
    h.sim.emitUnsolicited('+CFUN: 1');
    await h.waitFor(() => noise.length === 1, 'the boot noise');
    expect(noise).toEqual(['+CFUN: 1']);
    expect(await h.modem.command('AT+CFUN?')).toEqual({ lines: ['+CFUN: 1'] });
  });

  it('keeps a boot line named like another command out of the answer on the wire', async () => {
    h = await openHarness(kind);
    const noise: string[] = [];
    h.modem.on('noise', (text, reason) => noise.push(`${reason}:${text}`));
    await h.modem.start();
    h.sim.setFaults({ slowMs: 100 });
    const answer = outcome(h.modem.command('AT+CSQ'));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CSQ', 'AT+CSQ on the wire');
    h.sim.emitUnsolicited('+CPIN: READY');
    await h.waitFor(() => noise.length === 1, 'the boot line');
    h.clock.advance(100);
    await h.waitFor(answer.done, 'the answer');
    expect(answer.value()).toEqual({ lines: ['+CSQ: 21,99'] });
    expect(noise).toEqual(['stray:+CPIN: READY']);
  });

  it('fails start() with a timeout when the modem never answers, and rejects work queued meanwhile', async () => {
    h = await openHarness(kind, { faults: { noAnswer: true } }, { commandTimeoutMs: 1500 });
    const started = outcome(h.modem.start());
    const queued = outcome(h.modem.listMessages());
    await h.advanceUntil(started.done);
    expect(started.error()).toMatchObject({ code: 'timeout', command: 'AT' });
    expect(h.modem.state).toBe('stopped');
    expect(h.sim.commands).toEqual(['AT', 'AT', 'AT']);
    await h.waitFor(queued.done, 'the queued list');
    expect(queued.error()).toMatchObject({ code: 'stopped', command: 'AT+CMGL=4' });
    expect((queued.error() as Error).message).toBe(
      'AT+CMGL=4: the modem did not start: AT: no answer: waited 1500 ms for a final result',
    );
  });

  it('reports status reports stored with +CDSI when +CNMI asks for them that way', async () => {
    h = await openHarness(kind, { statusReportDelayMs: 1000 }, { cnmi: '2,1,0,2,0' });
    await h.modem.start();
    const slots: number[] = [];
    h.modem.on('status-report-stored', (slot) => slots.push(slot.index));
    const { encodeSubmit } = await import('../../../src/sms/pdu/index.js');
    const [part] = encodeSubmit({ to: '+15557650002', text: 'report me', statusReportRequest: true });
    if (part === undefined) throw new Error('no part');
    await h.modem.sendPdu(part.pdu, part.tpduLength);
    await h.advanceUntil(() => slots.length === 1);
    const report = await h.modem.readMessage(slots[0] ?? 0);
    expect(report?.decoded).toMatchObject({
      kind: 'status-report',
      messageReference: 1,
      statusCategory: 'delivered',
    });
  });

  it('emits RING and keeps it out of the answer', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    let rings = 0;
    h.modem.on('ring', () => rings++);
    h.sim.setFaults({ slowMs: 100 });
    const answer = outcome(h.modem.command('AT+CGMM'));
    await h.waitFor(() => h?.sim.commands.at(-1) === 'AT+CGMM', 'AT+CGMM on the wire');
    h.sim.emitUnsolicited('RING');
    h.clock.advance(100);
    await h.waitFor(answer.done, 'the answer');
    expect(answer.value()).toEqual({ lines: ['SIMULATED-LTE'] });
    expect(rings).toBe(1);
  });

  it('can be stopped and started again', async () => {
    h = await openHarness(kind);
    await h.modem.start();
    await h.modem.stop();
    expect(h.modem.state).toBe('stopped');
    const status = await h.modem.start();
    expect(status.storage.total).toBe(30);
    expect(await h.modem.command('AT+CGMI')).toEqual({ lines: ['branchgate'] });
  });
});

describe('modem engine start-up on a missing port', () => {
  it('fails start() with open_failed when the port cannot be opened', async () => {
    const h = await openHarness('memory');
    h.sim.dropPort();
    await expect(h.modem.start()).rejects.toMatchObject({
      code: 'open_failed',
      message: 'cannot open simulator: simulated modem is unplugged',
    });
    await h.close();
  });
});

describe('modem engine stop during recovery', () => {
  it('rejects queued work with stopped and makes no further attempts', async () => {
    const h = await openHarness('memory', {}, { reopenDelayMs: 500 });
    await h.modem.start();
    h.sim.dropPort();
    await h.advanceUntil(() => h.modem.state === 'recovering');
    const queued = outcome(h.modem.command('AT+CGMI'));
    await h.modem.stop();
    await h.waitFor(queued.done, 'the stop');
    expect(queued.error()).toMatchObject({ code: 'stopped', command: 'AT+CGMI' });
    h.sim.plugIn();
    const before = h.sim.commands.length;
    h.clock.advance(60_000);
    await h.settle();
    expect(h.clock.pending()).toBe(0);
    expect(h.sim.commands.length).toBe(before);
    expect(h.modem.state).toBe('stopped');
    await h.close();
  });
});
