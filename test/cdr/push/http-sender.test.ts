// The behaviour contract of the CDR push HTTP client (HttpSender), driven only through send() and
// close() against real servers on loopback: node:http/node:https where a well-formed server is
// enough, raw net servers where the exact answer bytes matter or the peer misbehaves.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import selfsigned from 'selfsigned';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { HttpSender } from '../../../src/cdr/push/http-sender.js';
import type { PushRequest } from '../../../src/cdr/push/request-body.js';

/** One request as a server read it. */
interface Received {
  method: string;
  target: string;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** 1-based number of the TCP connection it came on. */
  connection: number;
}

/** A server under test: its base URL and what it saw. */
interface Peer {
  url: string;
  port: number;
  requests: Received[];
  /** TCP connections accepted so far. */
  connections: () => number;
  /** TCP connections closed so far (raw servers only; 0 for node:http ones). */
  closed: () => number;
}

/** Called for each complete request a raw server reads; writes whatever bytes the test wants. */
type RawHandler = (req: Received, socket: net.Socket) => void;

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function sender(options: { timeoutMs?: number; ca?: string | Buffer } = {}): HttpSender {
  const s = new HttpSender({ timeoutMs: 1000, ...options });
  cleanups.push(() => s.close());
  return s;
}

function request(url: string, body = '{"n":1}', headers: Record<string, string> = {}): PushRequest {
  return { method: 'POST', url, headers, body };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every 5 ms; fails naming `what` after `ms`. */
async function until(cond: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A TCP server that parses requests (Content-Length bodies) and hands each to `handler`. */
async function rawServer(handler: RawHandler): Promise<Peer> {
  const requests: Received[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let closed = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
    let buf = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      buf = Buffer.concat([buf, data]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [line = '', ...fields] = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const f of fields) {
          const colon = f.indexOf(':');
          const name = f.slice(0, colon).trim().toLowerCase();
          const value = f.slice(colon + 1).trim();
          headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
        }
        const length = Number(headers['content-length'] ?? '0');
        if (buf.length < end + 4 + length) return;
        const [method = '', target = ''] = line.split(' ');
        const body = Buffer.from(buf.subarray(end + 4, end + 4 + length));
        buf = buf.subarray(end + 4 + length);
        const req: Received = { method, target, headers, body, connection };
        requests.push(req);
        handler(req, socket);
        if (socket.destroyed) return;
      }
    });
  });
  const port = await listen(server);
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    closed: () => closed,
  };
}

type HttpHandler = (req: Received, res: http.ServerResponse) => void;

/** Records every request of a node:http(s) server and hands it, body read, to `handler`. */
async function track(
  server: http.Server | https.Server,
  scheme: string,
  handler: HttpHandler,
): Promise<Peer> {
  const requests: Received[] = [];
  const numbers = new WeakMap<net.Socket, number>();
  let connections = 0;
  server.on('connection', (socket: net.Socket) => numbers.set(socket, ++connections));
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      const received: Received = {
        method: req.method ?? '',
        target: req.url ?? '',
        headers,
        body: Buffer.concat(parts),
        connection: numbers.get(req.socket) ?? 0,
      };
      requests.push(received);
      handler(received, res);
    });
  });
  const port = await listen(server);
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    closed: () => 0,
  };
}

function httpServer(handler: HttpHandler): Promise<Peer> {
  return track(http.createServer(), 'http', handler);
}

/** A node:http server answering every request 200 with `text`. */
function okServer(text = 'accepted'): Promise<Peer> {
  return httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  });
}

/** Writes `bytes` one byte per write, yielding to the event loop between writes. */
async function trickle(socket: net.Socket, bytes: string): Promise<void> {
  for (const b of Buffer.from(bytes, 'latin1')) {
    if (socket.destroyed) return;
    socket.write(Buffer.from([b]));
    await new Promise<void>((r) => setImmediate(r));
  }
}

describe('HttpSender', () => {
  test('a 200 with a Content-Length body is ok with the body and a latency', async () => {
    const peer = await okServer('accepted: 1 record');
    const a = await sender().send(request(`${peer.url}/cdr`));
    expect(a).toMatchObject({ ok: true, status: 200, error: '', body: 'accepted: 1 record' });
    expect(a.latencyMs).toBeGreaterThan(0);
  });

  test.each(['POST', 'PUT'] as const)(
    '%s puts method, target, Host, headers and exact UTF-8 body bytes on the wire',
    async (method) => {
      const peer = await okServer();
      const body = '{"name":"Zoë ☎ 😀"}';
      const headers = {
        'content-type': 'application/json',
        'x-api-key': 'key-1',
        'Idempotency-Key': 'cdr-42',
        authorization: 'Bearer t0k3n',
      };
      const a = await sender().send({ method, url: `${peer.url}/cdr/in?x=1`, headers, body });
      expect(a.ok).toBe(true);
      expect(peer.requests).toHaveLength(1);
      const got = peer.requests[0] as Received;
      expect(got.method).toBe(method);
      expect(got.target).toBe('/cdr/in?x=1');
      expect(got.headers.host).toBe(`127.0.0.1:${peer.port}`);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-api-key']).toBe('key-1');
      expect(got.headers['idempotency-key']).toBe('cdr-42');
      expect(got.headers.authorization).toBe('Bearer t0k3n');
      expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body, 'utf8')));
      expect(Buffer.byteLength(body, 'utf8')).toBeGreaterThan(body.length);
      expect(got.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    },
  );

  test('a URL without a path requests /', async () => {
    const peer = await okServer();
    expect((await sender().send(request(peer.url))).ok).toBe(true);
    expect(peer.requests.map((r) => r.target)).toEqual(['/']);
  });

  test('a chunked answer arriving byte by byte, with a chunk extension and a trailer, is reassembled and the connection reused', async () => {
    const peer = await rawServer((req, socket) => {
      if (req.connection === 1 && req.body.toString() === 'first') {
        void trickle(
          socket,
          'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n' +
            '5;ext=1\r\nhello\r\n7\r\n, world\r\nA\r\n 01234567.\r\n0\r\nX-Trailer: t\r\n\r\n',
        );
      } else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond');
    });
    const s = sender();
    const first = await s.send(request(peer.url, 'first'));
    expect(first).toMatchObject({ ok: true, status: 200, error: '', body: 'hello, world 01234567.' });
    const second = await s.send(request(peer.url, 'again'));
    expect(second).toMatchObject({ ok: true, status: 200, body: 'second' });
    expect(peer.requests).toHaveLength(2);
    expect(peer.connections()).toBe(1);
  });

  test('a close-delimited answer is read to the end, and the next send opens a new connection', async () => {
    const peer = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of ');
      setTimeout(() => socket.end('it'), 20);
    });
    const s = sender();
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status: 200, body: 'all of it' });
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status: 200, body: 'all of it' });
    expect(peer.requests).toHaveLength(2);
    expect(peer.connections()).toBe(2);
  });

  test('an unsolicited 100 Continue is a failure (undici refuses it; the request never asked for one)', async () => {
    const peer = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const a = await sender().send(request(peer.url));
    expect(a).toMatchObject({ ok: false, status: null });
    expect(a.error).toMatch(/malformed answer/);
  });

  test('an interim 103 answer before the final 200 is skipped', async () => {
    const peer = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n');
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone'), 10);
    });
    expect(await sender().send(request(peer.url))).toMatchObject({
      ok: true,
      status: 200,
      error: '',
      body: 'done',
    });
  });

  test('a UTF-8 body arriving byte by byte decodes whole characters', async () => {
    const text = 'Zoë ☎ 😀 done';
    const peer = await rawServer((_req, socket) => {
      void trickle(
        socket,
        `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${Buffer.from(text).toString('latin1')}`,
      );
    });
    expect(await sender().send(request(peer.url))).toMatchObject({ ok: true, status: 200, body: text });
  });

  test.each([
    ['no reason phrase', 'HTTP/1.1 201\r\nContent-Length: 2\r\n\r\nok', 201],
    ['an empty reason phrase', 'HTTP/1.1 202 \r\nContent-Length: 2\r\n\r\nok', 202],
    ['a long reason phrase', 'HTTP/1.1 200 Fine By Us\r\nContent-Length: 2\r\n\r\nok', 200],
    ['upper-case names and no space after the colon', 'HTTP/1.1 200 OK\r\nCONTENT-LENGTH:2\r\n\r\nok', 200],
    ['padding around the value', 'HTTP/1.1 200 OK\r\nContent-Length:   2  \r\n\r\nok', 200],
    [
      'a chunked answer in upper case',
      'HTTP/1.1 200 OK\r\nTRANSFER-ENCODING: CHUNKED\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      200,
    ],
  ])('an answer with %s is understood', async (_what, bytes, status) => {
    const peer = await rawServer((_req, socket) => socket.write(bytes));
    const s = sender();
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status, error: '', body: 'ok' });
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status, body: 'ok' });
    expect(peer.connections()).toBe(1);
  });

  test.each([
    [
      'two different Content-Lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\nokok',
    ],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: two\r\n\r\nok'],
    ['a negative Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -2\r\n\r\nok'],
    [
      'a chunk size that is not hex',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n',
    ],
    ['a status that is not a number', 'HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok'],
  ])('an answer with %s is refused', async (_what, bytes) => {
    const peer = await rawServer((_req, socket) => socket.write(bytes));
    const a = await sender().send(request(peer.url));
    expect(a.ok).toBe(false);
    expect(a.error).not.toBe('');
  });

  test('an unsolicited extra answer after the first is never taken as the next request’s answer', async () => {
    const peer = await rawServer((req, socket) => {
      if (req.body.toString() === 'one') {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\noneHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale',
        );
      } else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh');
    });
    const s = sender();
    expect(await s.send(request(peer.url, 'one'))).toMatchObject({ ok: true, status: 200, body: 'one' });
    await sleep(20);
    expect(await s.send(request(peer.url, 'two'))).toMatchObject({ ok: true, status: 200, body: 'fresh' });
    expect(peer.requests.map((r) => r.body.toString())).toEqual(['one', 'two']);
  });

  test('an IPv6 literal URL connects to the address and sends the bracketed Host', async () => {
    const hosts: string[] = [];
    const server = http.createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.end('v6');
    });
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });
    const port = (server.address() as net.AddressInfo).port;
    expect(await sender().send(request(`http://[::1]:${port}/cdr`))).toMatchObject({
      ok: true,
      status: 200,
      body: 'v6',
    });
    expect(hosts).toEqual([`[::1]:${port}`]);
  });

  test('a 204 without a body is ok and its connection is reused', async () => {
    const peer = await rawServer((_req, socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const s = sender();
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status: 204, error: '', body: '' });
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true, status: 204, body: '' });
    expect(peer.requests).toHaveLength(2);
    expect(peer.connections()).toBe(1);
  });

  test('20 sequential sends to a keep-alive server use one TCP connection', async () => {
    const peer = await okServer();
    const s = sender();
    for (let i = 0; i < 20; i++) {
      expect(await s.send(request(peer.url, `{"n":${i}}`))).toMatchObject({ ok: true, status: 200 });
    }
    expect(peer.requests.map((r) => r.body.toString())).toEqual(
      Array.from({ length: 20 }, (_, i) => `{"n":${i}}`),
    );
    expect(peer.connections()).toBe(1);
  });

  test('a keep-alive connection the server closed while idle is replaced: the next send succeeds', async () => {
    let firstClosed: Promise<void> = Promise.resolve();
    const peer = await rawServer((req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok');
      if (req.connection === 1) {
        firstClosed = new Promise((r) => socket.once('close', () => r()));
        setTimeout(() => socket.destroy(), 30);
      }
    });
    const s = sender();
    expect(await s.send(request(peer.url, 'one'))).toMatchObject({ ok: true, status: 200 });
    await firstClosed;
    await sleep(30);
    expect(await s.send(request(peer.url, 'two'))).toMatchObject({ ok: true, status: 200, body: 'ok' });
    expect(peer.requests.map((r) => [r.connection, r.body.toString()])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(peer.connections()).toBe(2);
  });

  test.each(['destroy', 'resetAndDestroy'] as const)(
    'a fresh connection dropped (%s) after the request arrives fails without a retry',
    async (how) => {
      const peer = await rawServer((_req, socket) => socket[how]());
      const a = await sender().send(request(peer.url));
      expect(a.ok).toBe(false);
      expect(a.status).toBeNull();
      expect(a.error).not.toBe('');
      await sleep(50);
      expect(peer.requests).toHaveLength(1);
      expect(peer.connections()).toBe(1);
    },
  );

  test('a 301 is a failure naming the Location, and the redirect is not followed', async () => {
    const target = await okServer();
    const location = `${target.url}/elsewhere`;
    const peer = await httpServer((_req, res) => {
      res.writeHead(301, { location, 'content-type': 'text/plain' });
      res.end('moved');
    });
    const a = await sender().send(request(peer.url));
    expect(a).toMatchObject({ ok: false, status: 301, body: 'moved' });
    expect(a.error).toMatch(/redirect to .* not followed/);
    expect(a.error).toContain(location);
    await sleep(50);
    expect(target.requests).toHaveLength(0);
    expect(target.connections()).toBe(0);
  });

  test.each([404, 500])('a %i is a failure "HTTP %i" keeping the body', async (status) => {
    const peer = await httpServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`no: ${status}`);
    });
    expect(await sender().send(request(peer.url))).toMatchObject({
      ok: false,
      status,
      error: `HTTP ${status}`,
      body: `no: ${status}`,
    });
  });

  test('a server that never answers times out after timeoutMs', async () => {
    const peer = await rawServer(() => {});
    const a = await sender({ timeoutMs: 300 }).send(request(peer.url));
    expect(a).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' });
    expect(a.latencyMs).toBeGreaterThanOrEqual(290);
    expect(peer.requests).toHaveLength(1);
  });

  test('a late answer on a timed-out connection is never taken as the next request’s answer', async () => {
    const peer = await rawServer((req, socket) => {
      if (req.connection === 1) {
        setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlate'), 450);
      } else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh');
    });
    const s = sender({ timeoutMs: 300 });
    expect(await s.send(request(peer.url, 'one'))).toMatchObject({ ok: false, status: null });
    expect(await s.send(request(peer.url, 'two'))).toMatchObject({ ok: true, status: 200, body: 'fresh' });
    await sleep(250);
    expect(await s.send(request(peer.url, 'three'))).toMatchObject({ ok: true, status: 200, body: 'fresh' });
    expect(peer.requests.map((r) => r.body.toString())).toEqual(['one', 'two', 'three']);
    expect(peer.requests[1]?.connection).not.toBe(1);
  });

  test('a refused connection fails with ECONNREFUSED', async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    const a = await sender().send(request(`http://127.0.0.1:${port}/cdr`));
    expect(a).toMatchObject({ ok: false, status: null, body: '' });
    expect(a.error).toContain('ECONNREFUSED');
  });

  test('a URL that does not parse fails without throwing', async () => {
    const a = await sender().send(request('not a url'));
    expect(a).toMatchObject({ ok: false, status: null });
    expect(a.error).not.toBe('');
  });

  test('a garbage answer is a failure saying the answer is malformed, and the sender keeps working', async () => {
    const bad = await rawServer((_req, socket) => socket.write('hello\r\n\r\n'));
    const good = await okServer('fine');
    const s = sender();
    const a = await s.send(request(bad.url));
    expect(a).toMatchObject({ ok: false, status: null });
    expect(a.error).toMatch(/answer/i);
    expect(await s.send(request(good.url))).toMatchObject({ ok: true, status: 200, body: 'fine' });
    expect(await s.send(request(bad.url))).toMatchObject({ ok: false, status: null });
  });

  test('answer headers of about 100 KiB are a failure, not a crash', async () => {
    const fill = 'a'.repeat(1000);
    let head = 'HTTP/1.1 200 OK\r\n';
    for (let i = 0; i < 100; i++) head += `X-Fill-${i}: ${fill}\r\n`;
    const peer = await rawServer((_req, socket) => socket.write(`${head}Content-Length: 2\r\n\r\nok`));
    const good = await okServer('fine');
    const s = sender();
    const a = await s.send(request(peer.url));
    expect(a.ok).toBe(false);
    expect(a.error).not.toBe('');
    expect(await s.send(request(good.url))).toMatchObject({ ok: true, status: 200, body: 'fine' });
  });

  test.each(['content-length', 'chunked'] as const)(
    'a long %s body is cut to its first 500 characters, yet read in full so the connection is reused',
    async (framing) => {
      const alphabet = 'abcdéfghij☎klmnopqrstuvwxyz';
      const long = Array.from({ length: 40_000 }, (_, i) => alphabet[i % alphabet.length]).join('');
      const peer = await httpServer((req, res) => {
        const text = req.body.toString() === 'long' ? long : 'short';
        // node:http frames the answer as chunked when no Content-Length is set.
        if (framing === 'content-length') res.setHeader('content-length', String(Buffer.byteLength(text)));
        res.writeHead(200);
        // Several writes, so the body arrives in pieces.
        for (let i = 0; i < text.length; i += 7000) res.write(text.slice(i, i + 7000));
        res.end();
      });
      const s = sender();
      const a = await s.send(request(peer.url, 'long'));
      expect(a).toMatchObject({ ok: true, status: 200 });
      expect(a.body).toBe(long.slice(0, 500));
      expect(await s.send(request(peer.url, 'next'))).toMatchObject({ ok: true, status: 200, body: 'short' });
      expect(peer.connections()).toBe(1);
    },
  );

  test('a 1 MiB request body arrives byte for byte', async () => {
    const peer = await okServer();
    const body = 'Zoë ☎ 😀 '.repeat(80_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1 << 20);
    const a = await sender({ timeoutMs: 5000 }).send(request(peer.url, body));
    expect(a).toMatchObject({ ok: true, status: 200 });
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(peer.requests[0]?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
  });

  test.each(['a\r\nX-Injected: 1', 'a\nX-Injected: 1', 'a\rb'])(
    'a header value with a line break (%j) is refused before anything is sent',
    async (value) => {
      const peer = await rawServer((_req, socket) =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
      );
      const s = sender();
      const a = await s.send(request(peer.url, 'evil', { 'x-evil': value }));
      expect(a).toMatchObject({ ok: false, status: null });
      expect(a.error).toMatch(/header/i);
      // A good request afterwards on the same sender is the only thing the server ever reads.
      expect(await s.send(request(peer.url, 'good', { 'x-good': 'yes' }))).toMatchObject({ ok: true });
      expect(peer.requests.map((r) => r.body.toString())).toEqual(['good']);
      expect(peer.requests[0]?.headers['x-injected']).toBeUndefined();
    },
  );

  test('a header name with a line break is refused before anything is sent', async () => {
    const peer = await rawServer((_req, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
    );
    const s = sender();
    const a = await s.send(request(peer.url, 'evil', { 'x-evil\r\nX-Injected': '1' }));
    expect(a).toMatchObject({ ok: false, status: null });
    expect(a.error).toMatch(/header/i);
    expect(await s.send(request(peer.url, 'good'))).toMatchObject({ ok: true });
    expect(peer.requests.map((r) => r.body.toString())).toEqual(['good']);
  });

  test('the timeout covers the whole exchange: a body trickling in past it times out', async () => {
    const peer = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n');
      const tick = setInterval(() => (socket.destroyed ? clearInterval(tick) : socket.write('x')), 100);
      socket.on('close', () => clearInterval(tick));
    });
    const a = await sender({ timeoutMs: 300 }).send(request(peer.url));
    expect(a).toMatchObject({ ok: false, error: 'timed out after 300 ms' });
    expect(a.latencyMs).toBeGreaterThanOrEqual(290);
    expect(a.latencyMs).toBeLessThan(1500);
  });

  test('close() drops the idle kept-alive connection', async () => {
    const peer = await rawServer((_req, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
    );
    const s = sender();
    expect(await s.send(request(peer.url))).toMatchObject({ ok: true });
    await sleep(20);
    expect(peer.closed()).toBe(0);
    s.close();
    await until(() => peer.closed() === 1, 'the server to see the connection close');
  });

  test('5 concurrent sends on one sender are all delivered, each with its own answer', async () => {
    const peer = await httpServer((req, res) => {
      // Answer out of order, so an answer mixed up with another request's shows.
      setTimeout(() => res.end(`echo ${req.body.toString()}`), 50 - 10 * Number(req.body.toString()));
    });
    const s = sender();
    const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => s.send(request(peer.url, String(i)))));
    expect(answers.map((a) => [a.ok, a.status, a.body])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [true, 200, `echo ${i}`]),
    );
    expect(peer.requests.map((r) => r.body.toString()).sort()).toEqual(['0', '1', '2', '3', '4']);
  });

  test('an HTTP/1.0 answer without keep-alive is ok and the next send uses a new connection', async () => {
    // The server leaves the connection open: closing it is up to the client.
    const peer = await rawServer((_req, socket) =>
      socket.write('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok'),
    );
    const s = sender();
    expect(await s.send(request(peer.url, 'one'))).toMatchObject({ ok: true, status: 200, body: 'ok' });
    expect(await s.send(request(peer.url, 'two'))).toMatchObject({ ok: true, status: 200, body: 'ok' });
    expect(peer.requests.map((r) => [r.connection, r.body.toString()])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  test('a "Connection: close" answer is ok and the next send uses a new connection', async () => {
    const peer = await rawServer((_req, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'),
    );
    const s = sender();
    expect(await s.send(request(peer.url, 'one'))).toMatchObject({ ok: true, status: 200, body: 'ok' });
    expect(await s.send(request(peer.url, 'two'))).toMatchObject({ ok: true, status: 200, body: 'ok' });
    expect(peer.requests.map((r) => r.connection)).toEqual([1, 2]);
  });

  test.each([
    ['a Content-Length longer than what arrives', 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part'],
    [
      'a chunked body without its last chunk',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\npart\r\n',
    ],
  ])('%s before the server closes is a failure', async (_what, bytes) => {
    const peer = await rawServer((_req, socket) => {
      socket.write(bytes);
      setTimeout(() => socket.end(), 20);
    });
    const a = await sender().send(request(peer.url));
    expect(a.ok).toBe(false);
    expect([200, null]).toContain(a.status);
    expect(a.error).not.toBe('');
    expect(peer.requests).toHaveLength(1);
  });

  describe('over HTTPS with a self-signed certificate', () => {
    let cert = '';
    let key = '';

    beforeAll(async () => {
      const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
        keySize: 2048,
        notAfterDate: new Date(Date.now() + 86_400_000),
        algorithm: 'sha256',
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
      });
      cert = pems.cert;
      key = pems.private;
    });

    function httpsServer(): Promise<Peer> {
      return track(https.createServer({ cert, key }), 'https', (_req, res) => res.end('secure ok'));
    }

    test('is refused for the certificate without ca, and nothing is sent', async () => {
      const peer = await httpsServer();
      const a = await sender().send(request(`${peer.url}/cdr`));
      expect(a).toMatchObject({ ok: false, status: null });
      expect(a.error).toMatch(/certificate|self.signed/i);
      expect(peer.requests).toHaveLength(0);
    });

    test.each(['string', 'Buffer'] as const)(
      'is trusted with the certificate as ca (%s), on one kept-alive connection',
      async (form) => {
        const peer = await httpsServer();
        const s = sender({ ca: form === 'string' ? cert : Buffer.from(cert) });
        expect(await s.send(request(`${peer.url}/cdr`))).toMatchObject({
          ok: true,
          status: 200,
          error: '',
          body: 'secure ok',
        });
        expect(await s.send(request(`${peer.url}/cdr`))).toMatchObject({ ok: true, body: 'secure ok' });
        expect(peer.requests).toHaveLength(2);
        expect(peer.connections()).toBe(1);
      },
    );
  });
});
