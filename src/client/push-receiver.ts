// For integrators receiving CDR pushes (DESIGN.md section 6): pure functions that read one pushed
// request (method, headers, body text) into its records and Idempotency-Key, and check the
// credentials the sender was configured with, in constant time. No I/O: plug them into any server.
//
//   request -> method? -> credentials? -> JSON content type? -> JSON? -> record | {"data":[...]}
import { timingSafeEqual } from 'node:crypto';
import { CDR_WIRE_FIELDS, type CdrWireRecord } from '../cdr/record.js';

/** A pushed record: the fields the sender selected (default all), same types as the pull API. */
import { verifyWebhook, WebhookVerificationError } from '../shared/standard-webhooks.js';

export type PushedCdrRecord = Partial<CdrWireRecord>;

/** Headers as node:http gives them (names lower-case); other casings are matched too. */
export type PushHeaders = Record<string, string | string[] | undefined>;

/** One received request. */
export interface PushRequest {
  method: string;
  headers: PushHeaders;
  /** The body, decoded as UTF-8. */
  body: string;
}

/** The credentials the sender was configured with; each one given is required. */
export interface PushCredentials {
  /** Expected `x-api-key`. */
  apiKey?: string | undefined;
  /** Expected `Authorization: Bearer <token>`. */
  bearer?: string | undefined;
  /** Expected HTTP Basic credentials, as `user:pass`. */
  basic?: string | undefined;
}

/** Options of readCdrPush. */
export interface ReadPushOptions {
  credentials?: PushCredentials;
  /**
   * Standard Webhooks secrets (whsec_...): when given, a request must carry a webhook-signature
   * one of them made, with a webhook-timestamp within 5 minutes of `nowSeconds`; else 401.
   */
  secrets?: readonly string[];
  /** The time signatures are checked at (default: now). */
  nowSeconds?: number;
  /**
   * Check each record's known fields have the contract's types (db_id an integer, the rest
   * strings); default true. Off, any JSON object is taken as a record.
   */
  checkFields?: boolean;
}

/** The outcome: the records, or the status to answer and why. */
export type PushReadResult =
  | {
      ok: true;
      /** Whether the body was `{"data":[...]}`. */
      batch: boolean;
      records: PushedCdrRecord[];
      /** `cdr-<db_id>` of the (first) record, or null when the request had none. */
      idempotencyKey: string | null;
    }
  | {
      ok: false;
      /** The HTTP status to answer: 405, 401, 415 or 400. */
      status: 400 | 401 | 405 | 415;
      /** What was wrong, for a person; never echoes a credential. */
      reason: string;
      idempotencyKey: string | null;
    };

/** One header's value (the first, when repeated), matched case-insensitively. */
export function headerOf(headers: PushHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== wanted || v === undefined) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why the request's credentials do not match `expected` (constant-time compares), or ''. */
export function pushCredentialProblem(headers: PushHeaders, expected: PushCredentials): string {
  if (expected.apiKey !== undefined && !sameSecret(headerOf(headers, 'x-api-key'), expected.apiKey)) {
    return 'x-api-key missing or wrong';
  }
  const auth = headerOf(headers, 'authorization');
  if (expected.bearer !== undefined && !sameSecret(auth, `Bearer ${expected.bearer}`)) {
    return 'Bearer token missing or wrong';
  }
  if (
    expected.basic !== undefined &&
    !sameSecret(auth, `Basic ${Buffer.from(expected.basic).toString('base64')}`)
  ) {
    return 'Basic credentials missing or wrong';
  }
  return '';
}

/** The records of a parsed body: one record object, or `{"data":[objects]}`; null otherwise. */
export function pushedRecordsOf(
  body: unknown,
): { batch: boolean; records: Record<string, unknown>[] } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const data = (body as { data?: unknown }).data;
  if (Array.isArray(data)) {
    if (!data.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) return null;
    return { batch: true, records: data as Record<string, unknown>[] };
  }
  return { batch: false, records: [body as Record<string, unknown>] };
}

// A push carries the fields the operator selected, so only the fields present are checked.
function pushedFieldProblem(r: Record<string, unknown>): string {
  for (const f of CDR_WIRE_FIELDS) {
    if (!(f in r)) continue;
    const v = r[f];
    if (f === 'db_id' ? typeof v !== 'number' || !Number.isSafeInteger(v) : typeof v !== 'string') {
      return `${f} is not ${f === 'db_id' ? 'an integer' : 'a string'}`;
    }
  }
  return '';
}

/** Reads one pushed request: method POST/PUT, credentials, JSON content type, then the body. */
export function readCdrPush(request: PushRequest, options: ReadPushOptions = {}): PushReadResult {
  const idempotencyKey = headerOf(request.headers, 'idempotency-key') ?? null;
  const refuse = (status: 400 | 401 | 405 | 415, reason: string): PushReadResult => ({
    ok: false,
    status,
    reason,
    idempotencyKey,
  });
  if (request.method !== 'POST' && request.method !== 'PUT') {
    return refuse(405, `method ${request.method} not accepted`);
  }
  const problem = pushCredentialProblem(request.headers, options.credentials ?? {});
  if (problem) return refuse(401, problem);
  if (options.secrets && options.secrets.length > 0) {
    try {
      verifyWebhook(request.headers, request.body, options.secrets, options.nowSeconds);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return refuse(401, `signature: ${err.message}`);
      throw err;
    }
  }
  if (!/^application\/json\b/i.test(headerOf(request.headers, 'content-type') ?? '')) {
    return refuse(415, 'Content-Type must be application/json');
  }
  let parsed: ReturnType<typeof pushedRecordsOf>;
  try {
    parsed = pushedRecordsOf(JSON.parse(request.body));
  } catch (err) {
    return refuse(400, `body is not JSON: ${(err as Error).message}`);
  }
  if (!parsed) return refuse(400, 'body must be a record object or {"data":[records]}');
  if (options.checkFields ?? true) {
    for (const [i, r] of parsed.records.entries()) {
      const why = pushedFieldProblem(r);
      if (why) return refuse(400, `${parsed.batch ? `data[${i}]` : 'record'}: ${why}`);
    }
  }
  return { ok: true, batch: parsed.batch, records: parsed.records as PushedCdrRecord[], idempotencyKey };
}
