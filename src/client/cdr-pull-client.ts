// A client for the CDR pull contract (GET /pbx/cdr/data, DESIGN.md section 5) that works against
// branchgate or any device speaking it: one page, or every record from a db_id on, page by page.
//
//   records({fromDbId}) -> find the first page holding fromDbId -> getPage(p), getPage(p+1), ...
//                          up to the last page total_pages names; each record once, in db_id order
import { CDR_WIRE_FIELDS, type CdrWireRecord } from '../cdr/record.js';
import { ClientError } from './client-error.js';
import {
  type ConnectionOptions,
  describeRequest,
  HttpExchange,
  jsonBody,
  parseBaseUrl,
  statusError,
} from './http-exchange.js';

export type { CdrWireRecord } from '../cdr/record.js';

/** How the client authenticates; every mode of the contract. */
export type CdrPullAuth =
  /** `Authorization: Basic base64(extension:key)`; keeps the key out of URLs and access logs. */
  | { kind: 'basic'; extension: string; key: string }
  /** Query `extension=N&key=K`, for devices that take only that form. */
  | { kind: 'query'; extension: string; key: string }
  /** The session cookie of a logged-in admin user, as `name=value` (see loginAdminSession). */
  | { kind: 'session'; cookie: string };

/** Options of a CdrPullClient. */
export interface CdrPullClientOptions extends ConnectionOptions {
  /** The server's base URL, e.g. `https://pbx.example:8443`. */
  url: string;
  auth: CdrPullAuth;
}

/** The query of one page request. */
export interface CdrPageQuery {
  /** Page number from 1; default 1. */
  page?: number;
  /** Records per page from 1; the server clamps it (branchgate: 1000); default 10. */
  limit?: number;
}

/** One page as the contract answers it, with page and limit as numbers. */
export interface CdrPage {
  records: CdrWireRecord[];
  /** The page the server says it answered. */
  page: number;
  /** The limit the server applied (after clamping). */
  limit: number;
  /** ceil(total / limit); 0 when there are no records. */
  totalPages: number;
}

/** Where an iteration starts and how big its pages are. */
export interface CdrIterateOptions {
  /** First db_id wanted; default 1 (everything). */
  fromDbId?: number;
  /** Records per request, 1 to 1000 (the contract's clamp); default 1000. */
  limit?: number;
}

/** A page of an iteration: the records not yet yielded, and where the iteration is. */
export interface CdrIterationPage {
  records: CdrWireRecord[];
  page: number;
  totalPages: number;
}

/** The largest limit the contract honours (larger ones are clamped to it). */
export const MAX_LIMIT = 1000;

const STRING_FIELDS = CDR_WIRE_FIELDS.filter((f) => f !== 'db_id');

/** Reads CDRs from a server speaking the pull contract. Call close() when done. */
export class CdrPullClient {
  readonly #base: URL;
  readonly #auth: CdrPullAuth;
  readonly #http: HttpExchange;

  constructor(options: CdrPullClientOptions) {
    this.#base = parseBaseUrl(options.url);
    this.#auth = options.auth;
    if (options.auth.kind !== 'session' && !/^[^:\s]+$/.test(options.auth.extension)) {
      throw new ClientError('bad_argument', 'auth.extension: must be non-empty, without ":" or spaces', {
        request: '',
      });
    }
    this.#http = new HttpExchange(this.#base, options);
  }

  /** One page; throws ClientError on any failure (HTTP 400 for a page or limit the server refuses) or a body that breaks the contract. */
  async getPage(query: CdrPageQuery = {}): Promise<CdrPage> {
    const url = new URL('pbx/cdr/data', this.#base);
    // Sent as given: the server judges them (a page of 0 is its 400 bad_parameter, as a ClientError).
    if (query.page !== undefined) url.searchParams.set('page', String(query.page));
    if (query.limit !== undefined) url.searchParams.set('limit', String(query.limit));
    const headers: Record<string, string> = {};
    const auth = this.#auth;
    if (auth.kind === 'query') {
      url.searchParams.set('extension', auth.extension);
      url.searchParams.set('key', auth.key);
    } else if (auth.kind === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${auth.extension}:${auth.key}`).toString('base64')}`;
    } else {
      headers.cookie = auth.cookie;
    }
    const what = describeRequest('GET', url);
    const answer = await this.#http.send('GET', url, headers);
    if (answer.status < 200 || answer.status > 299) throw statusError(answer, what);
    return parsePage(jsonBody(answer, what), what, answer.status);
  }

  /**
   * Every page from the one holding `fromDbId` to the last (total_pages, re-read on every answer), yielding only the
   * records not yet yielded (db_id ascending, each once, none below fromDbId).
   */
  async *pages(options: CdrIterateOptions = {}): AsyncGenerator<CdrIterationPage> {
    const fromDbId = options.fromDbId ?? 1;
    const limit = options.limit ?? 1000;
    if (!Number.isSafeInteger(fromDbId) || fromDbId < 1) {
      throw new ClientError('bad_argument', `fromDbId: must be a positive integer, not ${fromDbId}`, {
        request: '',
      });
    }
    // Page numbers count in the server's limit; above the contract's clamp they would not be ours.
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new ClientError(
        'bad_argument',
        `limit: must be an integer from 1 to ${MAX_LIMIT}, not ${limit}`,
        {
          request: '',
        },
      );
    }
    let page = await this.#firstPage(fromDbId, limit);
    let last = fromDbId - 1;
    for (;;) {
      const got = await this.getPage({ page, limit });
      const fresh = got.records.filter((r) => r.db_id > last);
      if (fresh.length > 0) last = (fresh.at(-1) as CdrWireRecord).db_id;
      yield { records: fresh, page: got.page, totalPages: got.totalPages };
      // total_pages, not a short page, ends it: a server that pages by db_id range (branchgate)
      // answers a short page where rows were deleted by hand, and the count grows as calls arrive.
      if (page >= got.totalPages) return;
      page += 1;
    }
  }

  /** Every record from `fromDbId` on, in db_id order, each once (see pages()). */
  async *records(options: CdrIterateOptions = {}): AsyncGenerator<CdrWireRecord> {
    for await (const p of this.pages(options)) yield* p.records;
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.#http.close();
  }

  // Records are in ascending db_id and ids are positive integers, so the record at position n has
  // db_id >= n: the page where db_id fromDbId would be at position fromDbId is the latest page that
  // can hold it. With dense ids (branchgate) that page is right, which one look at the page before
  // confirms; with gaps, binary search for the first page whose last record reaches fromDbId.
  async #firstPage(fromDbId: number, limit: number): Promise<number> {
    const guess = Math.floor((fromDbId - 1) / limit) + 1;
    if (guess === 1) return 1;
    const reaches = async (page: number) => {
      const got = await this.getPage({ page, limit });
      const lastRecord = got.records.at(-1);
      return lastRecord === undefined || lastRecord.db_id >= fromDbId;
    };
    if (!(await reaches(guess - 1))) return guess;
    let lo = 1;
    let hi = guess - 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await reaches(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

function parsePage(body: unknown, what: string, status: number): CdrPage {
  const bad = (why: string) =>
    new ClientError('bad_response', `not a CDR page: ${why}`, { request: what, status });
  if (typeof body !== 'object' || body === null) throw bad('body is not an object');
  const b = body as { data?: unknown; page?: unknown; limit?: unknown; total_pages?: unknown };
  if (!Array.isArray(b.data)) throw bad('"data" is not an array');
  const page = Number(b.page);
  const limit = Number(b.limit);
  if (typeof b.page !== 'string' || !Number.isSafeInteger(page)) throw bad('"page" is not an integer string');
  if (typeof b.limit !== 'string' || !Number.isSafeInteger(limit))
    throw bad('"limit" is not an integer string');
  if (typeof b.total_pages !== 'number' || !Number.isSafeInteger(b.total_pages)) {
    throw bad('"total_pages" is not an integer');
  }
  b.data.forEach((r, i) => {
    const problem = recordProblem(r);
    if (problem) throw bad(`data[${i}]: ${problem}`);
  });
  return { records: b.data as CdrWireRecord[], page, limit, totalPages: b.total_pages };
}

/** What makes `value` not a wire record (db_id an integer, every other field a string), or ''. */
export function recordProblem(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const r = value as Record<string, unknown>;
  if (typeof r.db_id !== 'number' || !Number.isSafeInteger(r.db_id)) return 'db_id is not an integer';
  for (const f of STRING_FIELDS) if (typeof r[f] !== 'string') return `${f} is not a string`;
  return '';
}

/**
 * Logs an admin user in (POST /api/login, branchgate's console API) and returns the session cookie
 * as `name=value`, for `{ kind: 'session', cookie }`.
 */
export async function loginAdminSession(
  options: ConnectionOptions & { url: string; username: string; password: string },
): Promise<string> {
  const base = parseBaseUrl(options.url);
  const http = new HttpExchange(base, options);
  const url = new URL('api/login', base);
  const what = describeRequest('POST', url);
  try {
    const answer = await http.send(
      'POST',
      url,
      { 'content-type': 'application/json' },
      JSON.stringify({ username: options.username, password: options.password }),
    );
    if (answer.status < 200 || answer.status > 299) throw statusError(answer, what);
    const setCookie = answer.headers['set-cookie'];
    const first = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
    if (!first?.includes('=')) {
      throw new ClientError('bad_response', 'login answered without a session cookie', {
        request: what,
        status: answer.status,
      });
    }
    return first;
  } finally {
    http.close();
  }
}
