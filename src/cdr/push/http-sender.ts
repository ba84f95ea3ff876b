// Sends push requests with a small HTTP/1.1 client of its own over node:net / node:tls sockets:
// keep-alive connections reused per origin, one request per connection at a time, a per-request
// timeout covering the whole exchange, and no redirect following. Any 2xx is an acknowledgement;
// everything else, including 3xx, a timeout and a malformed answer, is a failure with a reason.
//
// Why not node:http: one record per request is bound by the client's cost per exchange, and
// node:http's request/response machinery costs about three times what this does (bench/cdr-push.ts
// keeps node:http as a baseline). The answer parser (answer-parser.ts) reads only what
// delivery needs: the status, the framing (Content-Length, chunked, or until close), Connection,
// Location and the start of the body.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { AnswerParser, type ParsedAnswer, TOKEN } from './answer-parser.js';
import type { PushRequest } from './request-body.js';

/** The outcome of one request. */
export interface HttpAnswer {
  ok: boolean;
  /** HTTP status, null when no answer came (refused, reset, timeout, malformed). */
  status: number | null;
  /** Why it failed ('' when ok). Never includes request headers. */
  error: string;
  latencyMs: number;
  /** The start of the answer body (up to 500 characters), for "send test record". */
  body: string;
}

/** Options of an HttpSender. */
export interface HttpSenderOptions {
  /** Per-request timeout covering connect, send and the whole answer (default 10 s). */
  timeoutMs?: number | undefined;
  /**
   * Extra trusted CA certificate(s), PEM, for https receivers, added to Node's bundled roots.
   * (Operators can also use NODE_EXTRA_CA_CERTS.)
   */
  ca?: string | Buffer | undefined;
}

/** The default per-request timeout. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Characters of the answer body kept in HttpAnswer.body. */
const ANSWER_BODY_KEPT = 500;
// An idle connection is closed after this long, before a server's own keep-alive timeout
// (Node's default is 5 s) is likely to close it under a request.
const IDLE_MS = 4_000;
const MAX_IDLE_PER_ORIGIN = 4;

// Header field values may not hold CR, LF or NUL (names: answer-parser's TOKEN).
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// Framing headers the sender writes itself.
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

interface Target {
  origin: string;
  secure: boolean;
  /** Host to connect to (IPv6 without brackets). */
  host: string;
  port: number;
  /** The Host header (URL host, with the port when not the default). */
  hostHeader: string;
  path: string;
}

interface AttemptResult {
  result: Omit<HttpAnswer, 'latencyMs'>;
  /** The request failed on a reused connection before any answer: safe to try once more. */
  retryable: boolean;
}

/** One socket and the exchange running on it, if any. */
class Connection {
  exchange: Exchange | null = null;
  dead = false;

  constructor(
    readonly socket: net.Socket,
    readonly origin: string,
    private readonly forget: (c: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      if (this.exchange) this.exchange.onData(d);
      else this.destroy(); // unsolicited bytes on an idle connection
    });
    socket.on('end', () => {
      this.dead = true;
      this.exchange?.onEnd();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      this.dead = true;
      this.exchange?.onError(err);
    });
    socket.on('close', () => {
      this.dead = true;
      this.exchange?.onClose();
      this.forget(this);
    });
    socket.on('timeout', () => {
      if (!this.exchange) this.destroy();
    });
  }

  destroy(): void {
    this.dead = true;
    this.socket.destroy();
  }
}

/** One request/answer on a connection. */
class Exchange {
  private readonly parser = new AnswerParser(ANSWER_BODY_KEPT);
  private received = 0;
  private settled = false;

  constructor(
    private readonly conn: Connection,
    private readonly reused: boolean,
    private readonly done: (r: AttemptResult, answer: ParsedAnswer | null) => void,
  ) {}

  onData(d: Buffer): void {
    if (this.settled) return;
    this.received += d.length;
    const step = this.parser.push(d);
    if (step.error) this.fail(step.error);
    else if (step.answer) this.answered(step.answer);
  }

  onEnd(): void {
    if (this.settled) return;
    const step = this.parser.end();
    if (step.answer) this.answered(step.answer);
    else this.closed('');
  }

  onError(err: NodeJS.ErrnoException): void {
    if (this.settled) return;
    this.closed(err.code ? `${err.code}: ${err.message}` : err.message, err.code);
  }

  onClose(): void {
    if (!this.settled) this.closed('');
  }

  /** The answer never came whole: no bytes at all, or cut off part way. */
  private closed(reason: string, code?: string): void {
    if (this.received === 0) {
      const stale = this.reused && (code === undefined || code === 'ECONNRESET' || code === 'EPIPE');
      this.settle({ result: fail(reason || 'connection closed before any answer'), retryable: stale }, null);
      return;
    }
    const status = this.parser.status;
    this.settle(
      {
        result: {
          ok: false,
          status,
          error: `answer cut off: ${reason || `connection closed after ${this.received} bytes`}`,
          body: '',
        },
        retryable: false,
      },
      null,
    );
  }

  fail(error: string): void {
    if (this.settled) return;
    this.conn.destroy();
    this.settle({ result: fail(error), retryable: false }, null);
  }

  private answered(a: ParsedAnswer): void {
    const { status } = a;
    let result: Omit<HttpAnswer, 'latencyMs'>;
    if (status >= 200 && status < 300) result = { ok: true, status, error: '', body: a.body };
    else if (status >= 300 && status < 400) {
      const to = a.location ?? '(no Location)';
      result = { ok: false, status, error: `HTTP ${status} redirect to ${to} not followed`, body: a.body };
    } else result = { ok: false, status, error: `HTTP ${status}`, body: a.body };
    this.settle({ result, retryable: false }, a);
  }

  private settle(r: AttemptResult, answer: ParsedAnswer | null): void {
    this.settled = true;
    this.done(r, answer);
  }
}

const fail = (error: string): Omit<HttpAnswer, 'latencyMs'> => ({ ok: false, status: null, error, body: '' });

/** A reusable sender with its own keep-alive connections; close() drops them. */
export class HttpSender {
  private readonly timeoutMs: number;
  private readonly ca: (string | Buffer)[] | undefined;
  private readonly idle = new Map<string, Connection[]>();
  private readonly open = new Set<Connection>();
  private closed = false;

  constructor(options: HttpSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.ca = options.ca === undefined ? undefined : [...tls.rootCertificates, options.ca];
  }

  /** Sends one request; never throws. */
  async send(req: PushRequest): Promise<HttpAnswer> {
    const started = performance.now();
    const latency = () => performance.now() - started;
    const target = this.target(req.url);
    if (!target) return { ...fail(`bad URL ${req.url}`), latencyMs: latency() };
    const head = requestHead(req, target);
    if (typeof head !== 'string') return { ...fail(head.error), latencyMs: latency() };
    const body = Buffer.from(req.body, 'utf8');
    const wire = Buffer.concat([
      Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`, 'latin1'),
      body,
    ]);
    const deadline = started + this.timeoutMs;
    let a = await this.attempt(target, wire, deadline, false);
    // A keep-alive connection the server closed while idle fails before any answer: the request
    // never reached the server, so it is tried once more on a fresh connection.
    if (a.retryable) a = await this.attempt(target, wire, deadline, true);
    return { ...a.result, latencyMs: latency() };
  }

  private attempt(target: Target, wire: Buffer, deadline: number, fresh: boolean): Promise<AttemptResult> {
    if (this.closed) return Promise.resolve({ result: fail('sender closed'), retryable: false });
    const pooled = fresh ? undefined : this.takeIdle(target.origin);
    const conn = pooled ?? this.connect(target);
    return new Promise<AttemptResult>((resolve) => {
      const timer = setTimeout(
        () => {
          exchange.fail(`timed out after ${this.timeoutMs} ms`);
        },
        Math.max(0, deadline - performance.now()),
      );
      const exchange = new Exchange(conn, pooled !== undefined, (r, answer) => {
        clearTimeout(timer);
        conn.exchange = null;
        if (answer?.keepAlive && !answer.extra && !conn.dead && !this.closed) this.putIdle(conn);
        else conn.destroy();
        resolve(r);
      });
      conn.exchange = exchange;
      conn.socket.ref();
      conn.socket.setTimeout(0);
      conn.socket.write(wire);
    });
  }

  private connect(t: Target): Connection {
    const socket = t.secure
      ? tls.connect({
          host: t.host,
          port: t.port,
          ...(net.isIP(t.host) === 0 ? { servername: t.host } : {}),
          ALPNProtocols: ['http/1.1'],
          ...(this.ca ? { ca: this.ca } : {}),
        })
      : net.connect({ host: t.host, port: t.port });
    const conn = new Connection(socket, t.origin, (c) => this.forget(c));
    this.open.add(conn);
    return conn;
  }

  private takeIdle(origin: string): Connection | undefined {
    const list = this.idle.get(origin);
    while (list && list.length > 0) {
      const c = list.pop() as Connection;
      if (!c.dead) return c;
    }
    return undefined;
  }

  private putIdle(conn: Connection): void {
    let list = this.idle.get(conn.origin);
    if (!list) {
      list = [];
      this.idle.set(conn.origin, list);
    }
    if (list.length >= MAX_IDLE_PER_ORIGIN) {
      conn.destroy();
      return;
    }
    list.push(conn);
    // Idle connections neither keep the process alive nor stay open long.
    conn.socket.setTimeout(IDLE_MS);
    conn.socket.unref();
  }

  private forget(conn: Connection): void {
    this.open.delete(conn);
    const list = this.idle.get(conn.origin);
    const i = list ? list.indexOf(conn) : -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  // Every request of a run goes to the same URL: parse it once.
  private parsed: { text: string; target: Target } | null = null;

  private target(text: string): Target | null {
    if (this.parsed?.text === text) return this.parsed.target;
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      return null;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const secure = u.protocol === 'https:';
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    const port = u.port === '' ? (secure ? 443 : 80) : Number(u.port);
    const target: Target = {
      origin: `${u.protocol}//${u.host}`,
      secure,
      host,
      port,
      hostHeader: u.host,
      path: `${u.pathname || '/'}${u.search}`,
    };
    this.parsed = { text, target };
    return target;
  }

  /** Closes every connection, idle or in use; later sends fail. */
  close(): void {
    this.closed = true;
    for (const c of [...this.open]) c.destroy();
    this.idle.clear();
  }
}

/** The request line and headers (without Content-Length and the blank line), or what is wrong. */
function requestHead(req: PushRequest, t: Target): string | { error: string } {
  let head = `${req.method} ${t.path} HTTP/1.1\r\nHost: ${t.hostHeader}\r\n`;
  for (const [name, value] of Object.entries(req.headers)) {
    if (!TOKEN.test(name)) return { error: `invalid request header name ${JSON.stringify(name)}` };
    if (!FIELD_VALUE.test(value)) {
      return { error: `request header ${name} holds a line break or control character` };
    }
    if (OWN_HEADERS.has(name.toLowerCase())) continue;
    head += `${name}: ${value}\r\n`;
  }
  return head;
}
