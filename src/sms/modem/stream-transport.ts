// A ModemTransport over any Node duplex stream, e.g. the simulator's in-memory link. `connect` is
// called on every open(), so a "replugged" simulator hands out a fresh stream.
import type { Duplex } from 'node:stream';
import type { ModemTransport, TransportHandlers } from './transport.js';

/** Creates a transport that gets its stream from connect() on each open(). */
export function createStreamTransport(
  connect: () => Duplex | Promise<Duplex>,
  description = 'stream',
): ModemTransport {
  let stream: Duplex | undefined;
  const closedByUs = new WeakSet<Duplex>();
  return {
    description,
    async open(handlers: TransportHandlers): Promise<void> {
      const s = await connect();
      stream = s;
      s.on('data', (chunk: Buffer | string) =>
        handlers.data(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk),
      );
      s.on('error', () => {
        if (!s.destroyed) s.destroy();
      });
      s.on('close', () => {
        if (stream === s) stream = undefined;
        if (!closedByUs.has(s)) handlers.closed(new Error(`${description} closed by the other side`));
      });
    },
    write(data: string): Promise<void> {
      const s = stream;
      if (s === undefined || s.destroyed) return Promise.reject(new Error(`${description} is not open`));
      return new Promise((resolve, reject) => {
        s.write(Buffer.from(data, 'latin1'), (err) => (err ? reject(err) : resolve()));
      });
    },
    async close(): Promise<void> {
      const s = stream;
      stream = undefined;
      if (s === undefined || s.destroyed) return;
      closedByUs.add(s);
      s.destroy();
    },
  };
}
