// A CDR push receiver for operators and tests: an HTTP server that checks the credentials it was
// given (401 otherwise), takes one record or {"data":[...]} per request, appends each record as a
// JSON line to a file, reports each request, and can fail a share of requests at random (500,
// nothing stored) with injectable randomness so tests are repeatable.
import { timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Receiver options; with no credentials given, every request is accepted. */
export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  apiKey?: string | undefined;
  bearer?: string | undefined;
  /** HTTP Basic credentials as user:pass. */
  basic?: string | undefined;
  /** File each accepted record is appended to, one JSON object per line. */
  out?: string | undefined;
  /** Share of requests answered 500 without storing (0..1). */
  failRate?: number | undefined;
  /** Source of randomness for failRate (default Math.random); see seededRandom(). */
  random?: (() => number) | undefined;
  /** Called once per request with its outcome (the CLI prints it). */
  onRequest?: ((r: ReceivedRequest) => void) | undefined;
  /** Keep every request and record in `requests` / `records` (default true; the CLI turns it off). */
  keep?: boolean | undefined;
  /** Awaited after an accepted request's records are stored and before it is answered. */
  beforeAnswer?: ((r: ReceivedRequest) => Promise<void>) | undefined;
}

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  at: Date;
  method: string;
  idempotencyKey: string;
  userAgent: string;
  /** HTTP status answered. */
  status: number;
  /** Why it was refused ('' when accepted). */
  reason: string;
  batch: boolean;
  /** The records it carried (empty when refused before parsing). */
  records: Record<string, unknown>[];
  /** Whether an earlier accepted request had the same Idempotency-Key. */
  repeat: boolean;
}

/** How many recent Idempotency-Keys a receiver remembers for marking repeats. */
export const SEEN_KEYS_KEPT = 100_000;

/** A running receiver. */
export interface CdrReceiver {
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order (empty with keep: false). */
  readonly requests: ReceivedRequest[];
  /** Records of accepted requests, in arrival order (empty with keep: false). */
  readonly records: Record<string, unknown>[];
  close(): Promise<void>;
}

/** A deterministic random source (mulberry32) for --fail-rate with --seed and for tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function authProblem(req: http.IncomingMessage, o: ReceiverOptions): string {
  const header = req.headers['x-api-key'];
  if (o.apiKey !== undefined && !sameSecret(typeof header === 'string' ? header : undefined, o.apiKey)) {
    return 'x-api-key missing or wrong';
  }
  const auth = req.headers.authorization;
  if (o.bearer !== undefined && !sameSecret(auth, `Bearer ${o.bearer}`))
    return 'Bearer token missing or wrong';
  if (o.basic !== undefined && !sameSecret(auth, `Basic ${Buffer.from(o.basic).toString('base64')}`)) {
    return 'Basic credentials missing or wrong';
  }
  return '';
}

function recordsOf(body: unknown): { batch: boolean; records: Record<string, unknown>[] } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const data = (body as { data?: unknown }).data;
  if (Array.isArray(data)) {
    if (!data.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) return null;
    return { batch: true, records: data as Record<string, unknown>[] };
  }
  return { batch: false, records: [body as Record<string, unknown>] };
}

/** Starts a receiver listening on host:port (default 127.0.0.1, a free port). */
export async function startCdrReceiver(o: ReceiverOptions = {}): Promise<CdrReceiver> {
  const random = o.random ?? Math.random;
  const failRate = o.failRate ?? 0;
  if (!(failRate >= 0 && failRate <= 1))
    throw new RangeError(`failRate: must be between 0 and 1, not ${failRate}`);
  const requests: ReceivedRequest[] = [];
  const records: Record<string, unknown>[] = [];
  const keep = o.keep ?? true;
  // Idempotency-Keys seen, for marking repeats; bounded so a long-running receiver stays small.
  const seenKeys = new Set<string>();
  const remember = (key: string) => {
    seenKeys.add(key);
    if (seenKeys.size > SEEN_KEYS_KEPT) seenKeys.delete(seenKeys.values().next().value as string);
  };
  let out: WriteStream | null = null;
  if (o.out !== undefined) {
    const stream = createWriteStream(o.out, { flags: 'a' });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    out = stream;
  }
  const append = (lines: string) =>
    new Promise<void>((resolve, reject) =>
      out ? out.write(lines, (err) => (err ? reject(err) : resolve())) : resolve(),
    );

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    const key = req.headers['idempotency-key'];
    const r: ReceivedRequest = {
      at: new Date(),
      method: req.method ?? '',
      idempotencyKey: typeof key === 'string' ? key : '',
      userAgent: req.headers['user-agent'] ?? '',
      status: 200,
      reason: '',
      batch: false,
      records: [],
      repeat: false,
    };
    const answer = (status: number, reason: string, extraHeaders: Record<string, string> = {}) => {
      r.status = status;
      r.reason = reason;
      if (keep) requests.push(r);
      o.onRequest?.(r);
      const body = status === 200 ? { status: 'ok', records: r.records.length } : { error: reason };
      res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' && req.method !== 'PUT')
      return answer(405, `method ${req.method} not accepted`);
    const problem = authProblem(req, o);
    if (problem) return answer(401, problem, { 'www-authenticate': 'Basic realm="cdr-receiver"' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return answer(415, 'Content-Type must be application/json');
    }
    let parsed: ReturnType<typeof recordsOf>;
    try {
      parsed = recordsOf(JSON.parse(text));
    } catch (err) {
      return answer(400, `body is not JSON: ${(err as Error).message}`);
    }
    if (!parsed) return answer(400, 'body must be a record object or {"data":[records]}');
    if (failRate > 0 && random() < failRate) return answer(500, 'failure injected (--fail-rate)');
    r.batch = parsed.batch;
    r.records = parsed.records;
    r.repeat = r.idempotencyKey !== '' && seenKeys.has(r.idempotencyKey);
    if (r.idempotencyKey !== '') remember(r.idempotencyKey);
    if (keep) for (const rec of parsed.records) records.push(rec);
    try {
      await append(parsed.records.map((rec) => `${JSON.stringify(rec)}\n`).join(''));
    } catch (err) {
      return answer(500, `cannot write ${o.out}: ${(err as Error).message}`);
    }
    if (o.beforeAnswer) await o.beforeAnswer(r);
    if (!res.destroyed) answer(200, '');
    else if (keep) requests.push(r);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    requests,
    records,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (out) await new Promise<void>((resolve) => out?.end(() => resolve()));
    },
  };
}
