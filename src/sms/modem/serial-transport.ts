// A ModemTransport over a real serial port (or a pty) through the `serialport` package.
import { SerialPort } from 'serialport';
import type { ModemTransport, TransportHandlers } from './transport.js';

/** Where and how fast to open the port. */
export interface SerialTransportOptions {
  /** Device path, e.g. /dev/ttyUSB2. */
  path: string;
  /** Default 115200. */
  baudRate?: number;
}

/** Creates a transport that opens a fresh SerialPort on every open(). */
export function createSerialTransport(options: SerialTransportOptions): ModemTransport {
  let port: SerialPort | undefined;
  // Ports we closed ourselves: their 'close' event is not a lost port.
  const closedByUs = new WeakSet<SerialPort>();
  return {
    description: options.path,
    open(handlers: TransportHandlers): Promise<void> {
      return new Promise((resolve, reject) => {
        const p = new SerialPort({
          path: options.path,
          baudRate: options.baudRate ?? 115_200,
          autoOpen: false,
        });
        p.open((err) => {
          if (err) {
            reject(err);
            return;
          }
          port = p;
          p.on('data', (chunk: Buffer) => handlers.data(chunk));
          p.on('error', () => {
            // A read or write error ends the port; 'close' then reports it.
            if (p.isOpen && !closedByUs.has(p)) p.close(() => {});
          });
          p.on('close', (closeErr: Error | null | undefined) => {
            if (port === p) port = undefined;
            if (!closedByUs.has(p)) handlers.closed(closeErr ?? undefined);
          });
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
      if (p === undefined || !p.isOpen) return Promise.resolve();
      closedByUs.add(p);
      return new Promise((resolve) => p.close(() => resolve()));
    },
  };
}
