// `branchgate modem-sim`: runs the simulated modem on a pseudo-terminal (prints its path) so the
// engine, gammu or minicom can talk to it; loads the simulator lazily.
import type { Command } from 'commander';
import { AppError } from '../shared/errors.js';

interface ModemSimFlags {
  pty?: boolean;
  link?: string;
  slots: string;
  simBusy: string;
  deliver: string[];
  log?: boolean;
}

/** Adds the `modem-sim` command group to the program. */
export function registerModemSim(program: Command): void {
  program
    .command('modem-sim')
    .description('run the simulated LTE modem (AT commands, PDU mode) on a pseudo-terminal')
    .option('--pty', 'serve on a pty pair made with socat and print its device path')
    .option('--link <path>', 'stable symlink for the pty (default: a new name in the temp directory)')
    .option('--slots <n>', 'SIM storage slots', '30')
    .option('--sim-busy <n>', 'answer AT+CPIN? with +CME ERROR: 14 (SIM busy) this many times first', '0')
    .option(
      '--deliver <from=text>',
      'a network message to hold in SIM storage at start (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--log', 'print every AT command received to stderr')
    .action(async (flags: ModemSimFlags) => {
      if (flags.pty !== true) throw new ModemSimUsageError('say where to serve it: --pty');
      const slots = positiveInteger(flags.slots, '--slots', 1, 255);
      const simBusy = positiveInteger(flags.simBusy, '--sim-busy', 0, 1000);
      const messages = flags.deliver.map((spec) => {
        const eq = spec.indexOf('=');
        if (eq <= 0)
          throw new ModemSimUsageError(`--deliver ${JSON.stringify(spec)}: expected <from>=<text>`);
        return { from: spec.slice(0, eq), text: spec.slice(eq + 1) };
      });
      const { createSimulatedModem, servePty } = await import('../sms/modem/sim/index.js');
      const sim = createSimulatedModem({ slots, simBusyQueries: simBusy });
      for (const m of messages) sim.deliver(m.from, m.text);
      if (flags.log === true) {
        sim.on('command', (line) => process.stderr.write(`modem-sim: <- ${line}\n`));
        sim.on('unknown', (command) =>
          process.stderr.write(`modem-sim: unknown command ${command}: ERROR\n`),
        );
        sim.on('sent', (m) => process.stderr.write(`modem-sim: sent #${m.messageReference} to ${m.to}\n`));
      }
      const link = await servePty(sim, flags.link === undefined ? {} : { link: flags.link });
      process.stdout.write(`${link.path}\n`);
      process.stderr.write(`modem-sim: serving on ${link.path} -> ${link.device ?? '?'}; Ctrl-C to stop\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await link.close();
    });
}

/** A bad `modem-sim` flag. */
class ModemSimUsageError extends AppError<'usage'> {
  constructor(message: string) {
    super('usage', `modem-sim: ${message}`);
  }
}

function positiveInteger(text: string, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new ModemSimUsageError(`${flag} must be an integer ${min}..${max}, got ${JSON.stringify(text)}`);
  }
  return n;
}
