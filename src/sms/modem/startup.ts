// The start-up recipe, run after every open of the port: sync, echo off, numeric errors, SIM ready
// (retrying while it is busy), PDU mode, storage, new-message indications, SMSC address.
import type { AtResponse } from './command-lifecycle.js';
import { ModemError } from './modem-error.js';
import type { ResolvedModemOptions } from './modem-options.js';
import { type Scheduler, sleep } from './scheduler.js';

/** Runs one start-up command (internal: ahead of queued work). */
export type RunInternal = (text: string, timeoutMs?: number) => Promise<AtResponse>;

/** What start-up learned about the modem. */
export interface ModemStatus {
  /** Messages in storage and its size, from AT+CPMS. */
  storage: { name: string; used: number; total: number };
  /** The SMSC address from AT+CSCA?, or undefined when the modem has none. */
  smsc: string | undefined;
}

/** Runs the recipe; rejects with a ModemError naming the step that failed. */
export async function runStartup(
  run: RunInternal,
  options: ResolvedModemOptions,
  scheduler: Scheduler,
): Promise<ModemStatus> {
  await syncAt(run);
  await run('ATE0');
  await run('AT+CMEE=1');
  await waitForSim(run, options, scheduler);
  await run('AT+CMGF=0');
  const storage = parseCpms(
    await run(`AT+CPMS="${options.storage}","${options.storage}","${options.storage}"`),
    options.storage,
  );
  await run(`AT+CNMI=${options.cnmi}`);
  const smsc = parseCsca(await run('AT+CSCA?'));
  return { storage, smsc };
}

/** A first AT may meet a modem still at a prompt or mid-line: retry it a few times. */
async function syncAt(run: RunInternal): Promise<void> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await run('AT');
      return;
    } catch (err) {
      last = err;
      if (!(err instanceof ModemError) || err.code === 'port_closed') throw err;
    }
  }
  throw last;
}

async function waitForSim(
  run: RunInternal,
  options: ResolvedModemOptions,
  scheduler: Scheduler,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await run('AT+CPIN?');
      const line = answer.lines.find((l) => l.startsWith('+CPIN:'));
      const state = line?.slice('+CPIN:'.length).trim();
      if (state === 'READY') return;
      throw new ModemError(
        state === undefined ? 'bad_response' : 'sim_not_ready',
        state === undefined
          ? `no +CPIN: line in ${JSON.stringify(answer.lines)}`
          : `SIM is not ready: ${state}`,
        { command: 'AT+CPIN?' },
      );
    } catch (err) {
      const busy =
        err instanceof ModemError &&
        ((err.code === 'cme_error' && err.modemCode === 14) ||
          (err.code === 'cms_error' && err.modemCode === 314));
      if (!busy || attempt >= options.simBusyRetries) throw err;
      await sleep(scheduler, options.simBusyRetryMs);
    }
  }
}

function parseCpms(answer: AtResponse, name: string): ModemStatus['storage'] {
  const line = answer.lines.find((l) => l.startsWith('+CPMS:'));
  const m = line === undefined ? null : /^\+CPMS:\s*(\d+)\s*,\s*(\d+)/.exec(line);
  if (m?.[1] === undefined || m[2] === undefined) {
    throw new ModemError(
      'bad_response',
      `expected "+CPMS: <used>,<total>,..." but got ${JSON.stringify(answer.lines)}`,
      {
        command: 'AT+CPMS',
      },
    );
  }
  return { name, used: Number(m[1]), total: Number(m[2]) };
}

function parseCsca(answer: AtResponse): string | undefined {
  const line = answer.lines.find((l) => l.startsWith('+CSCA:'));
  if (line === undefined) {
    throw new ModemError('bad_response', `expected "+CSCA: ..." but got ${JSON.stringify(answer.lines)}`, {
      command: 'AT+CSCA?',
    });
  }
  const m = /^\+CSCA:\s*"([^"]*)"/.exec(line);
  return m?.[1] === undefined || m[1] === '' ? undefined : m[1];
}
