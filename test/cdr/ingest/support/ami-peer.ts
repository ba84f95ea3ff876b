// A stand-in Asterisk manager on a loopback port: sends the banner, reads the Login action, answers
// it (success, or an error), then writes the events it is given, cut at the given byte offsets
// (each piece its own write, so the client reads them split there). Closing it drops every
// connection, as an Asterisk restart does; it can listen again on the same port.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { CAPTURE_DIR } from './capture.js';

const CAPTURE = readFileSync(resolve(CAPTURE_DIR, 'ami-cdr-events.txt'));
const firstEvent = CAPTURE.indexOf('Event: Cdr');
const logoff = CAPTURE.indexOf('Response: Goodbye');

/** The capture's 28 Event: Cdr blocks, bytes as Asterisk sent them (CRLF). */
export const CAPTURE_EVENTS: Buffer = CAPTURE.subarray(firstEvent, logoff < 0 ? CAPTURE.length : logoff);
/** The capture's banner line. */
export const CAPTURE_BANNER: Buffer = CAPTURE.subarray(0, CAPTURE.indexOf('\n') + 1);

/** What the peer does after the banner. */
export interface AmiPeerScript {
  /** Answer the login with an error carrying this message instead of success. */
  refuseLogin?: string;
  /** Bytes to send after a successful login. */
  events?: Buffer;
  /** Cut the events at these offsets (each piece is a separate write). */
  splits?: readonly number[];
}

/** A running peer. */
export interface AmiPeer {
  port: number;
  /** Login actions received (their raw text). */
  logins: string[];
  /** What the next connection gets. */
  script: AmiPeerScript;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  listen(): Promise<void>;
  /** Writes more bytes to every logged-in connection. */
  send(bytes: Buffer | string): void;
}

/** Starts a peer on a free loopback port (or the given one). */
export async function startAmiPeer(script: AmiPeerScript = {}, port = 0): Promise<AmiPeer> {
  const sockets = new Set<Socket>();
  const loggedIn = new Set<Socket>();
  let server: Server;
  const peer: AmiPeer = {
    port,
    logins: [],
    script,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
    listen: () => listen(),
    send: (bytes) => {
      for (const s of loggedIn) s.write(bytes);
    },
  };
  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      loggedIn.delete(socket);
    });
    socket.on('error', () => {});
    socket.write(CAPTURE_BANNER);
    let text = '';
    socket.on('data', async (c: Buffer) => {
      text += c.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0 || loggedIn.has(socket)) return;
      const action = text.slice(0, end);
      text = text.slice(end + 4);
      if (!/^Action: Login/im.test(action)) return;
      peer.logins.push(action);
      const s = peer.script;
      if (s.refuseLogin !== undefined) {
        socket.write(`Response: Error\r\nActionID: x\r\nMessage: ${s.refuseLogin}\r\n\r\n`);
        return;
      }
      loggedIn.add(socket);
      socket.write(
        'Response: Success\r\nActionID: branchgate-login\r\nMessage: Authentication accepted\r\n\r\n',
      );
      const events = s.events ?? Buffer.alloc(0);
      const cuts = [...new Set(s.splits ?? [])]
        .filter((n) => n > 0 && n < events.length)
        .sort((a, b) => a - b);
      let from = 0;
      for (const cut of [...cuts, events.length]) {
        if (socket.destroyed) return;
        socket.write(events.subarray(from, cut));
        from = cut;
        // Let each piece leave as its own TCP segment.
        await new Promise((r) => setImmediate(r));
      }
    });
  };
  const listen = () =>
    new Promise<void>((done, fail) => {
      server = createServer(onConnection);
      server.once('error', fail);
      server.listen(peer.port, '127.0.0.1', () => {
        peer.port = (server.address() as { port: number }).port;
        done();
      });
    });
  await listen();
  return peer;
}
