// A loopback AMI peer for tests: greets like Asterisk, accepts any login, answers every action with
// Success (echoing ActionID), and sends the capture's `Event: Cdr` blocks when told to. Events sent
// while no client is logged in are lost, as they are with a real Asterisk.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { CAPTURE_DIR } from './capture.js';

/** The capture's 28 `Event: Cdr` blocks (CRLF, without the blank line that ends each). */
export const AMI_CDR_BLOCKS: readonly string[] = readFileSync(
  resolve(CAPTURE_DIR, 'ami-cdr-events.txt'),
  'latin1',
)
  .split('\r\n\r\n')
  .filter((b) => b.startsWith('Event: Cdr'));

/** A running peer. */
export interface AmiReplayPeer {
  port: number;
  /** Clients logged in now. */
  loggedIn(): number;
  /** Sends blocks to every logged-in client; returns how many clients got them. */
  send(blocks: readonly string[]): number;
  close(): Promise<void>;
}

/** Starts a peer on 127.0.0.1 and a free port. */
export async function startAmiReplayPeer(): Promise<AmiReplayPeer> {
  const clients = new Set<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      clients.delete(socket);
    });
    socket.on('error', () => {});
    socket.write('Asterisk Call Manager/11.0.0\r\n');
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1').replace(/\r/g, '');
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const action = /^Action:\s*(.*)$/im.exec(block)?.[1]?.trim().toLowerCase() ?? '';
        const id = /^ActionID:\s*(.*)$/im.exec(block)?.[1]?.trim();
        const actionId = id === undefined ? '' : `ActionID: ${id}\r\n`;
        if (action === 'logoff') {
          socket.end(`Response: Goodbye\r\n${actionId}Message: Thanks for all the fish.\r\n\r\n`);
          continue;
        }
        const message = action === 'login' ? 'Message: Authentication accepted\r\n' : '';
        socket.write(`Response: Success\r\n${actionId}${message}\r\n`);
        if (action === 'login') clients.add(socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    loggedIn: () => clients.size,
    send(blocks) {
      for (const c of clients) for (const b of blocks) c.write(`${b}\r\n\r\n`);
      return clients.size;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
