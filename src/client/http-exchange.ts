// One HTTP(S) exchange for the SDK over undici (as the push job sends): TLS trust (extra CA certificates,
// or an explicit insecure switch), a timeout over the whole exchange, a bounded answer, and
// failures turned into ClientError with the request named (secrets redacted).
//
//   caller -> exchange(method, url, headers, body) -> { status, headers, text } | ClientError
import type { IncomingHttpHeaders } from 'node:http';
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { ClientError } from './client-error.js';

/** How the SDK connects; shared by every client. */
export interface ConnectionOptions {
  /** Milliseconds for one whole request (connect, send, answer); default 30000. */
  timeoutMs?: number;
  /**
   * Extra trusted CA certificate(s), PEM, added to Node's default roots: the server's self-signed
   * certificate itself works here.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /**
   * Skip TLS certificate verification entirely. Anyone on the path can then read and change the
   * traffic, credentials included; use `ca` instead wherever possible. Default false.
   */
  insecure?: boolean;
  /** Largest answer body accepted, in bytes; default 64 MiB. */
  maxAnswerBytes?: number;
  /** User-Agent header; default `branchgate-client`. */
  userAgent?: string;
}

/** An answer as the clients read it. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Query parameters whose values never appear in error messages. */
const SECRET_PARAMS = /^(key|auth|password|token|secret|api_key)$/i;

/** The request as `METHOD URL` with secret query values replaced by `***`. */
export function describeRequest(method: string, url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  for (const name of [...shown.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) shown.searchParams.set(name, '***');
  }
  return `${method} ${shown.href.replace(/%2A%2A%2A/gi, '***')}`;
}

/** Parses and checks a base URL (http or https, no credentials, query or fragment). */
export function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientError('bad_argument', `url: "${value}" is not a URL`, { request: '' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ClientError('bad_argument', `url: must be http:// or https://, not ${url.protocol}//`, {
      request: '',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ClientError(
      'bad_argument',
      'url: give only scheme, host, port and path (credentials go in auth)',
      {
        request: '',
      },
    );
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The transport of one client: an undici Agent with keep-alive connections, and the options. */
export class HttpExchange {
  readonly #options: ConnectionOptions;
  readonly #agent: Agent;

  constructor(_base: URL, options: ConnectionOptions = {}) {
    this.#options = options;
    const extra = options.ca;
    const ca: Array<string | Buffer> | undefined =
      extra === undefined
        ? undefined
        : typeof extra === 'string' || Buffer.isBuffer(extra)
          ? [extra]
          : [...extra];
    this.#agent = new Agent({
      // The whole exchange is bounded by the SDK's own timeout.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: {
        rejectUnauthorized: options.insecure !== true,
        // Passing `ca` replaces Node's roots; keep them so public CAs still work next to a private one.
        ...(ca === undefined ? {} : { ca: [...rootCertificates, ...ca] }),
      },
    });
  }

  /** Sends one request and reads the whole answer; rejects with ClientError. */
  async send(method: string, url: URL, headers: Record<string, string>, body?: string): Promise<HttpAnswer> {
    const what = describeRequest(method, url);
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    const maxBytes = this.#options.maxAnswerBytes ?? 64 * 1024 * 1024;
    const allHeaders: Record<string, string> = {
      'user-agent': this.#options.userAgent ?? 'branchgate-client',
      accept: 'application/json',
      ...headers,
    };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let status: number | null = null;
    try {
      const res = await this.#agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: allHeaders,
        body: body ?? null,
        signal: abort.signal,
      });
      status = res.statusCode;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new ClientError('bad_response', `answer larger than ${maxBytes} bytes`, {
            request: what,
            status,
          });
        }
        chunks.push(chunk);
      }
      return {
        status,
        headers: res.headers as IncomingHttpHeaders,
        text: Buffer.concat(chunks).toString('utf8'),
      };
    } catch (err) {
      if (err instanceof ClientError) throw err;
      if (abort.signal.aborted)
        throw new ClientError('timeout', `no complete answer within ${timeoutMs} ms`, { request: what });
      throw transportError(err as NodeJS.ErrnoException, what);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes idle kept-alive connections. */
  close(): void {
    this.#agent.destroy().catch(() => {
      // already closed
    });
  }
}

function transportError(err: NodeJS.ErrnoException, what: string): ClientError {
  // undici passes socket and TLS errors through, sometimes wrapped with the original as cause.
  const code = err.code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (TLS_CODES.has(code)) {
    return new ClientError(
      'tls',
      `the server's TLS certificate is not trusted (${code}: ${err.message}); give its certificate or CA with the ca option (CLI: --ca FILE)`,
      { request: what },
      { cause: err },
    );
  }
  return new ClientError(
    'connection',
    `${code ? `${code}: ` : ''}${err.message}`,
    { request: what },
    { cause: err },
  );
}

/**
 * The ClientError for a non-2xx answer, with the server's `error.code` / `error.message` when the
 * body is the contract's error shape (`{"error":{...}}`, with or without `"status":"error"`).
 */
export function statusError(answer: HttpAnswer, what: string): ClientError {
  let serverCode: string | null = null;
  let serverMessage: string | null = null;
  try {
    const body = JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body?.error?.code === 'string') serverCode = body.error.code;
    if (typeof body?.error?.message === 'string') serverMessage = body.error.message;
  } catch {
    // Not JSON (a proxy's page, say): the status alone says what happened.
  }
  const said =
    serverCode === null ? '' : ` ${serverCode}${serverMessage === null ? '' : `: ${serverMessage}`}`;
  return new ClientError('http_status', `HTTP ${answer.status}${said}`, {
    request: what,
    status: answer.status,
    serverCode,
    serverMessage,
  });
}

/** Parses a 2xx answer's JSON body, or throws bad_response. */
export function jsonBody(answer: HttpAnswer, what: string): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new ClientError('bad_response', `HTTP ${answer.status} answer is not JSON`, {
      request: what,
      status: answer.status,
    });
  }
}
