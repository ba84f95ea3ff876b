// Opens the modem `--modem` names: `sim` (a simulated modem on an in-memory link), `sim-pty` (a
// simulated modem served on a real pty through socat, opened like hardware) or a serial device.
import { AppError } from '../shared/errors.js';
import {
  createModem,
  createSerialTransport,
  createSimulatedModem,
  createStreamTransport,
  type Modem,
  type ModemOptions,
  type Scheduler,
  type SimulatedModem,
  servePty,
} from './modem/index.js';

/** An opened (not yet started) modem, the simulator behind it if any, and what to close after it. */
export interface OpenedModem {
  modem: Modem;
  simulator: SimulatedModem | undefined;
  /** Where it is, for messages. */
  description: string;
  close(): Promise<void>;
}

/** Checks a --modem value; throws bad_config naming it when it is none of the accepted forms. */
export function checkModemSpec(spec: string): string {
  if (spec === 'sim' || spec === 'sim-pty' || /^\/\S+$/.test(spec)) return spec;
  throw new AppError(
    'bad_config',
    `--modem "${spec}": expected sim, sim-pty or a serial device such as /dev/ttyUSB2`,
  );
}

/** Builds the modem for a --modem value. */
export async function openModem(
  spec: string,
  scheduler: Scheduler,
  options: ModemOptions = {},
): Promise<OpenedModem> {
  checkModemSpec(spec);
  if (spec === 'sim') {
    const simulator = createSimulatedModem({ clock: scheduler });
    const transport = createStreamTransport(() => simulator.connect(), 'simulated modem');
    const modem = createModem({ transport, options, clock: scheduler });
    return {
      modem,
      simulator,
      description: 'simulated modem (in memory)',
      close: async () => {
        // nothing beyond the modem to close
      },
    };
  }
  if (spec === 'sim-pty') {
    const simulator = createSimulatedModem({ clock: scheduler });
    const link = await servePty(simulator);
    const modem = createModem({
      transport: createSerialTransport({ path: link.path }),
      options,
      clock: scheduler,
    });
    return { modem, simulator, description: `simulated modem on ${link.path}`, close: () => link.close() };
  }
  const modem = createModem({ transport: createSerialTransport({ path: spec }), options, clock: scheduler });
  return {
    modem,
    simulator: undefined,
    description: spec,
    close: async () => {
      // nothing beyond the modem to close
    },
  };
}
