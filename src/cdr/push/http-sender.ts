// Sends push requests over node:http / node:https with keep-alive, a per-request timeout covering
// the whole exchange, and no redirect following (node's client never follows them). Any 2xx is an
// acknowledgement; everything else, including 3xx and a timeout, is a failure with a reason.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { PushRequest } from './request-body.js';

/** The outcome of one request. */
export interface HttpAnswer {
  ok: boolean;
  /** HTTP status, null when no answer came (refused, reset, timeout). */
  status: number | null;
  /** Why it failed ('' when ok). Never includes request headers. */
  error: string;
  latencyMs: number;
  /** The start of the answer body (up to 500 characters), for "send test record". */
  body: string;
}

/** The default per-request timeout. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const BODY_KEEP = 500;

/** A reusable sender with its own keep-alive connections; close() drops them. */
export class HttpSender {
  private readonly timeoutMs: number;
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 4 });

  constructor(options: { timeoutMs?: number } = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /** Sends one request; never throws. */
  async send(req: PushRequest): Promise<HttpAnswer> {
    const started = performance.now();
    let answer = await this.once(req, started);
    // A keep-alive connection the server closed while idle fails before any answer: Node's docs
    // advise retrying such a request once on a fresh connection.
    if (answer.retryable) answer = await this.once(req, started);
    return answer.result;
  }

  private once(req: PushRequest, started: number): Promise<{ result: HttpAnswer; retryable: boolean }> {
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (result: Omit<HttpAnswer, 'latencyMs'>, retryable = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ result: { ...result, latencyMs: performance.now() - started }, retryable });
      };
      const url = this.parse(req.url);
      if (!url) {
        finish({ ok: false, status: null, error: `bad URL ${req.url}`, body: '' });
        return;
      }
      const secure = url.protocol === 'https:';
      const body = Buffer.from(req.body, 'utf8');
      const options: http.RequestOptions = {
        method: req.method,
        headers: { ...req.headers, 'content-length': String(body.length) },
        agent: secure ? this.httpsAgent : this.httpAgent,
      };
      const request = (secure ? https : http).request(url, options, (res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < BODY_KEEP) text += chunk.slice(0, BODY_KEEP - text.length);
        });
        res.on('end', () => {
          if (status >= 200 && status < 300) finish({ ok: true, status, error: '', body: text });
          else if (status >= 300 && status < 400) {
            const to = res.headers.location ?? '(no Location)';
            finish({ ok: false, status, error: `HTTP ${status} redirect to ${to} not followed`, body: text });
          } else finish({ ok: false, status, error: `HTTP ${status}`, body: text });
        });
        res.on('error', (err) =>
          finish({ ok: false, status, error: `answer cut off: ${err.message}`, body: text }),
        );
      });
      timer = setTimeout(() => {
        request.destroy();
        finish({ ok: false, status: null, error: `timed out after ${this.timeoutMs} ms`, body: '' });
      }, this.timeoutMs);
      request.on('error', (err: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        finish(
          {
            ok: false,
            status: null,
            error: err.code ? `${err.code}: ${err.message}` : err.message,
            body: '',
          },
          stale,
        );
      });
      request.end(body);
    });
  }

  // Every request of a run goes to the same URL: parse it once.
  private parsed: { text: string; url: URL } | null = null;

  private parse(text: string): URL | null {
    if (this.parsed?.text === text) return this.parsed.url;
    try {
      this.parsed = { text, url: new URL(text) };
      return this.parsed.url;
    } catch {
      return null;
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
