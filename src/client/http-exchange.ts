// One HTTP(S) exchange for the SDK over node:https / node:http: TLS trust (extra CA certificates,
// or an explicit insecure switch), a timeout over the whole exchange, a bounded answer, and
// failures turned into ClientError with the request named (secrets redacted).
//
//   caller -> exchange(method, url, headers, body) -> { status, headers, text } | ClientError
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
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

/** The transport of one client: a keep-alive agent for its scheme, and the options. */
export class HttpExchange {
  readonly #options: ConnectionOptions;
  readonly #agent: HttpAgent;
  readonly #https: boolean;

  constructor(base: URL, options: ConnectionOptions = {}) {
    this.#options = options;
    this.#https = base.protocol === 'https:';
    const extra = options.ca;
    const ca: Array<string | Buffer> | undefined =
      extra === undefined
        ? undefined
        : typeof extra === 'string' || Buffer.isBuffer(extra)
          ? [extra]
          : [...extra];
    this.#agent = this.#https
      ? new HttpsAgent({
          keepAlive: true,
          rejectUnauthorized: options.insecure !== true,
          // Passing `ca` replaces Node's roots; keep them so public CAs still work next to a private one.
          ...(ca === undefined ? {} : { ca: [...rootCertificates, ...ca] }),
        })
      : new HttpAgent({ keepAlive: true });
  }

  /** Sends one request and reads the whole answer; rejects with ClientError. */
  send(method: string, url: URL, headers: Record<string, string>, body?: string): Promise<HttpAnswer> {
    const what = describeRequest(method, url);
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    const maxBytes = this.#options.maxAnswerBytes ?? 64 * 1024 * 1024;
    const allHeaders: Record<string, string> = {
      'user-agent': this.#options.userAgent ?? 'branchgate-client',
      accept: 'application/json',
      ...headers,
    };
    if (body !== undefined) allHeaders['content-length'] = String(Buffer.byteLength(body));
    return new Promise<HttpAnswer>((resolve, reject) => {
      let settled = false;
      const fail = (err: ClientError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(err);
      };
      const req = (this.#https ? httpsRequest : httpRequest)(url, {
        method,
        headers: allHeaders,
        agent: this.#agent,
      });
      const timer = setTimeout(
        () =>
          fail(new ClientError('timeout', `no complete answer within ${timeoutMs} ms`, { request: what })),
        timeoutMs,
      );
      req.on('error', (err: NodeJS.ErrnoException) => fail(transportError(err, what)));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            fail(
              new ClientError('bad_response', `answer larger than ${maxBytes} bytes`, {
                request: what,
                status: res.statusCode ?? null,
              }),
            );
            return;
          }
          chunks.push(c);
        });
        res.on('error', (err: NodeJS.ErrnoException) => fail(transportError(err, what)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      req.end(body);
    });
  }

  /** Closes idle kept-alive connections. */
  close(): void {
    this.#agent.destroy();
  }
}

function transportError(err: NodeJS.ErrnoException, what: string): ClientError {
  const code = err.code ?? '';
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
