// A CDR push receiver for operators and tests: an HTTP server that checks the credentials it was
// given (401 otherwise), takes one record or {"data":[...]} per request, appends each record as a
// JSON line to a file, reports each request, and can fail a share of requests at random (500,
// nothing stored) with injectable randomness so tests are repeatable.
import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readCdrPush } from '../../client/index.js';

/** Receiver options; with no credentials given, every request is accepted. */
export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  apiKey?: string | undefined;
  bearer?: string | undefined;
  /** HTTP Basic credentials as user:pass. */
  basic?: string | undefined;
  /** Standard Webhooks secrets: refuse (401) a request without a valid, fresh signature. */
  secrets?: string[] | undefined;
  /** File each accepted record is appended to, one JSON object per line. */
  out?: string | undefined;
  /** Share of requests answered 500 without storing (0..1). */
  failRate?: number | undefined;
  /** Source of randomness for failRate (default Math.random); see src/shared/seeded-random.ts. */
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
    // Method, credentials, content type and body shape: the SDK's reader (src/client), as
    // integrators would use it; records are taken as any JSON objects, whatever their fields.
    const read = readCdrPush(
      { method: req.method ?? '', headers: req.headers, body: text },
      {
        credentials: { apiKey: o.apiKey, bearer: o.bearer, basic: o.basic },
        checkFields: false,
        ...(o.secrets && o.secrets.length > 0 ? { secrets: o.secrets } : {}),
      },
    );
    if (!read.ok) {
      return answer(
        read.status,
        read.reason,
        read.status === 401 ? { 'www-authenticate': 'Basic realm="cdr-receiver"' } : {},
      );
    }
    const parsed = { batch: read.batch, records: read.records as Record<string, unknown>[] };
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
