// A ModemTransport over a real serial port (or a pty) through the `serialport` package. Besides
// serialport's own close/error events, a presence check looks at the device path every few
// seconds: a hung-up pty or a re-enumerated USB modem does not always wake a pending read.
import { realpath } from 'node:fs/promises';
import { SerialPort } from 'serialport';
import { type Scheduler, systemScheduler, type Timer } from './scheduler.js';
import type { ModemTransport, TransportHandlers } from './transport.js';

/** Where and how fast to open the port. */
export interface SerialTransportOptions {
  /** Device path, e.g. /dev/ttyUSB2 (a symlink is followed at each open). */
  path: string;
  /** Default 115200. */
  baudRate?: number;
  /** How often to check that the device path still leads to the opened device (default 2000 ms; 0 turns it off). */
  presenceCheckMs?: number;
  /** Timers for the presence check (default: the system's). */
  clock?: Scheduler;
}

/** Creates a transport that opens a fresh SerialPort on every open(). */
export function createSerialTransport(options: SerialTransportOptions): ModemTransport {
  const clock = options.clock ?? systemScheduler;
  const presenceMs = options.presenceCheckMs ?? 2000;
  let port: SerialPort | undefined;
  let presence: Timer | undefined;
  // Ports we closed ourselves: their 'close' event is not a lost port.
  const closedByUs = new WeakSet<SerialPort>();

  const stopPresence = () => {
    if (presence !== undefined) clock.clearTimer(presence);
    presence = undefined;
  };

  const watch = (p: SerialPort, device: string, handlers: TransportHandlers) => {
    if (presenceMs <= 0) return;
    presence = clock.setTimer(presenceMs, () => {
      presence = undefined;
      realpath(options.path).then(
        (now) => {
          if (port !== p) return;
          if (now === device) watch(p, device, handlers);
          else lose(p, handlers, `${options.path} now leads to ${now}, not ${device}`);
        },
        () => {
          if (port === p) lose(p, handlers, `${options.path} is gone`);
        },
      );
    });
  };

  const lose = (p: SerialPort, handlers: TransportHandlers, why: string) => {
    closedByUs.add(p);
    port = undefined;
    stopPresence();
    if (p.isOpen)
      p.close(() => {
        // a close error on a port we are abandoning changes nothing
      });
    handlers.closed(new Error(why));
  };

  return {
    description: options.path,
    async open(handlers: TransportHandlers): Promise<void> {
      const device = await realpath(options.path);
      await new Promise<void>((resolve, reject) => {
        const p = new SerialPort({ path: device, baudRate: options.baudRate ?? 115_200, autoOpen: false });
        p.open((err) => {
          if (err) {
            reject(err);
            return;
          }
          port = p;
          p.on('data', (chunk: Buffer) => handlers.data(chunk));
          p.on('error', () => {
            // A read or write error ends the port; 'close' then reports it.
            if (p.isOpen && !closedByUs.has(p))
              p.close(() => {
                // a close error on a port we are abandoning changes nothing
              });
          });
          p.on('close', (closeErr: Error | null | undefined) => {
            if (port === p) {
              port = undefined;
              stopPresence();
            }
            if (!closedByUs.has(p)) handlers.closed(closeErr ?? undefined);
          });
          watch(p, device, handlers);
          resolve();
        });
      });
    },
    write(data: string): Promise<void> {
      const p = port;
      if (p === undefined || !p.isOpen) return Promise.reject(new Error(`${options.path} is not open`));
      return new Promise((resolve, reject) => {
        p.write(data, 'latin1', (err) => (err ? reject(err) : resolve()));
      });
    },
    close(): Promise<void> {
      const p = port;
      port = undefined;
      stopPresence();
      if (p === undefined || !p.isOpen) return Promise.resolve();
      closedByUs.add(p);
      return new Promise((resolve) => p.close(() => resolve()));
    },
  };
}
