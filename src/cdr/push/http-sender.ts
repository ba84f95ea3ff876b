// Sends push requests over undici (Node's own HTTP client, the engine under fetch): keep-alive
// connections reused per origin, one request per connection at a time (no pipelining), a timeout
// covering the whole exchange, and no redirect following. Any 2xx is an acknowledgement;
// everything else, including 3xx, a timeout and a malformed answer, is a failure with a reason.
//
// Until issue 15 this was a hand-written HTTP/1.1 client; undici was measured beside it in the
// same run (docs/benchmarks.md, "Our HTTP client against undici") within 10% in wall time per
// exchange, so by the project's rule for hand-written pieces a library covers, undici took over.
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import tls from 'node:tls';
import { Client, type Dispatcher } from 'undici';
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
// Answer bodies are read to their end so the connection can be reused, up to this much; a longer
// one is cut and its connection closed.
const ANSWER_BODY_READ_MAX = 1024 * 1024;
// An idle connection is closed after this long, before a server's own keep-alive timeout
// (Node's default is 5 s) is likely to close it under a request.
const IDLE_MS = 4_000;

// RFC 9110 token (header names) and field values without CR, LF or NUL.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// Framing headers undici writes itself.
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
// undici's codes for a connection that closed under a request before any answer: on a kept-alive
// connection that the server closed while idle, the request never reached it.
const STALE = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

interface Target {
  origin: string;
  path: string;
}

const fail = (error: string): Omit<HttpAnswer, 'latencyMs'> => ({ ok: false, status: null, error, body: '' });

/** The reason text of an undici or socket error, with its code first (`ECONNREFUSED: connect ...`). */
function reasonOf(err: unknown): { text: string; code: string | undefined } {
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? String(err);
  if (code?.startsWith('HPE_') || e.name === 'HTTPParserError' || message === 'bad response')
    return { text: `malformed answer: ${message}`, code };
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return { text: `answer headers too large: ${message}`, code };
  return { text: code && !message.startsWith(code) ? `${code}: ${message}` : message, code };
}

/** The whole send's deadline: expired, and how to abort the exchange in flight. */
interface Deadline {
  expired: boolean;
  abort: ((reason: Error) => void) | null;
}

/** The deadline's timer callback. */
function expire(deadline: Deadline): void {
  deadline.expired = true;
  deadline.abort?.(new Error('timeout'));
}

type AttemptResult = { answer: Omit<HttpAnswer, 'latencyMs'>; stale: boolean };

/**
 * The dispatch handler of one exchange (a class, so a request allocates one object and no
 * closures): collects the status, the headers that matter and the start of the body.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private status: number | null = null;
  private location: string | undefined;
  private closes = false;
  private decoder: StringDecoder | null = null;
  private kept = '';
  private read = 0;
  private cut = false;
  private settled = false;

  constructor(
    private readonly sender: HttpSender,
    private readonly origin: string,
    private readonly deadline: Deadline,
    private readonly resolve: (r: AttemptResult) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.deadline.abort = (reason) => controller.abort(reason);
    if (this.deadline.expired) controller.abort(new Error('timeout'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    const loc = headers.location;
    this.location = Array.isArray(loc) ? loc[0] : loc;
    const connection = headers.connection;
    this.closes = connection !== undefined && /\bclose\b/i.test(String(connection));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.read += chunk.length;
    if (this.kept.length < ANSWER_BODY_KEPT) {
      this.decoder ??= new StringDecoder('utf8');
      this.kept += this.decoder.write(chunk);
    }
    if (this.read > ANSWER_BODY_READ_MAX) {
      // Enough of it: the answer stands, the connection goes.
      this.cut = true;
      controller.abort(new Error('answer body too long'));
    }
  }

  onResponseEnd(): void {
    this.answered();
  }

  onResponseError(_controller: unknown, err: Error): void {
    const status = this.status;
    if (this.cut && status !== null) {
      this.answered();
      return;
    }
    const { timeoutMs, closed } = this.sender.settings;
    if (this.deadline.expired) {
      this.done(fail(`timed out after ${timeoutMs} ms`));
      return;
    }
    if (closed) {
      this.done(fail('sender closed'));
      return;
    }
    const { text, code } = reasonOf(err);
    const wasWarm = this.sender.markWarm(this.origin, false);
    if (status !== null) {
      this.done({ ok: false, status, error: `answer cut off: ${text}`, body: '' });
      return;
    }
    this.done(fail(text), wasWarm && code !== undefined && STALE.has(code));
  }

  private answered(): void {
    if (this.decoder && this.kept.length < ANSWER_BODY_KEPT) this.kept += this.decoder.end();
    const body = this.kept.length > ANSWER_BODY_KEPT ? this.kept.slice(0, ANSWER_BODY_KEPT) : this.kept;
    this.sender.markWarm(this.origin, !(this.closes || this.cut));
    const code = this.status as number;
    if (code >= 200 && code < 300) {
      this.done({ ok: true, status: code, error: '', body });
      return;
    }
    if (code >= 300 && code < 400) {
      this.done({
        ok: false,
        status: code,
        error: `HTTP ${code} redirect to ${this.location ?? '(no Location)'} not followed`,
        body,
      });
      return;
    }
    this.done({ ok: false, status: code, error: `HTTP ${code}`, body });
  }

  private done(answer: Omit<HttpAnswer, 'latencyMs'>, stale = false): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.abort = null;
    this.resolve({ answer, stale });
  }
}

/** A reusable sender with its own keep-alive connections; close() drops them. */
export class HttpSender {
  private readonly timeoutMs: number;
  private readonly clients = new Map<string, Client>();
  private readonly clientOptions: Client.Options;
  private closed = false;
  // Origins whose last exchange left a kept-alive connection: only a request that may have gone
  // out on such a connection is retried after it closed under it (never one on a fresh connection).
  private readonly warm = new Set<string>();

  constructor(options: HttpSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const ca = options.ca === undefined ? undefined : [...tls.rootCertificates, options.ca];
    this.clientOptions = {
      pipelining: 1,
      keepAliveTimeout: IDLE_MS,
      keepAliveMaxTimeout: IDLE_MS,
      // The whole exchange is bounded by our own timeout below.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { ...(ca ? { ca } : {}), ALPNProtocols: ['http/1.1'] },
    };
  }

  // One undici Client (one connection) per receiver origin.
  private client(origin: string): Client {
    let c = this.clients.get(origin);
    if (!c || c.destroyed || c.closed) {
      c = new Client(origin, this.clientOptions);
      this.clients.set(origin, c);
    }
    return c;
  }

  /** Sends one request; never throws. */
  async send(req: PushRequest): Promise<HttpAnswer> {
    const started = performance.now();
    const latency = () => performance.now() - started;
    const target = this.target(req.url);
    if (!target) return { ...fail(`bad URL ${req.url}`), latencyMs: latency() };
    const headers = requestHeaders(req);
    if ('error' in headers) return { ...fail(headers.error), latencyMs: latency() };
    if (this.closed) return { ...fail('sender closed'), latencyMs: latency() };
    // One deadline for the whole send, a retry on a stale connection included.
    const deadline: Deadline = { expired: false, abort: null };
    const timer = setTimeout(expire, this.timeoutMs, deadline);
    try {
      let result = await this.attempt(target, req, headers.list, deadline);
      if (result.stale && !deadline.expired) result = await this.attempt(target, req, headers.list, deadline);
      return { ...result.answer, latencyMs: latency() };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One exchange through undici's dispatch handler (no response stream, no AbortSignal: the
   * answer's bytes arrive in onResponseData and the deadline aborts through the controller).
   */
  private attempt(
    target: Target,
    req: PushRequest,
    headers: string[],
    deadline: Deadline,
  ): Promise<{ answer: Omit<HttpAnswer, 'latencyMs'>; stale: boolean }> {
    return new Promise((resolve) => {
      const exchange = new Exchange(this, target.origin, deadline, resolve);
      let client: Client;
      try {
        client = this.client(target.origin);
      } catch (err) {
        exchange.onResponseError(null, err as Error);
        return;
      }
      client.dispatch({ path: target.path, method: req.method, headers, body: req.body }, exchange);
    });
  }

  /** @internal For Exchange: the timeout, whether close() ran, and the warm-connection marks. */
  get settings(): { timeoutMs: number; closed: boolean } {
    return { timeoutMs: this.timeoutMs, closed: this.closed };
  }

  /** @internal Marks an origin's connection as kept alive (true) or not (false); returns whether it was. */
  markWarm(origin: string, warm: boolean): boolean {
    if (warm) {
      this.warm.add(origin);
      return true;
    }
    return this.warm.delete(origin);
  }

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
    const target: Target = { origin: u.origin, path: `${u.pathname || '/'}${u.search}` };
    this.parsed = { text, target };
    return target;
  }

  /** Closes every connection, idle or in use; later sends fail. */
  close(): void {
    this.closed = true;
    for (const c of this.clients.values())
      c.destroy().catch(() => {
        // already destroyed
      });
    this.clients.clear();
  }
}

/** The request headers as undici takes them (flat name/value list), or what is wrong. */
function requestHeaders(req: PushRequest): { list: string[] } | { error: string } {
  const list: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (!TOKEN.test(name)) return { error: `invalid request header name ${JSON.stringify(name)}` };
    if (!FIELD_VALUE.test(value))
      return { error: `request header ${name} holds a line break or control character` };
    if (OWN_HEADERS.has(name.toLowerCase())) continue;
    list.push(name, value);
  }
  return { list };
}
