// A client for the SMS contract (DESIGN.md section 7): four POST endpoints taking JSON with the
// admin password as `auth`, answering {"status":"success","data":...} or
// {"status":"error","error":{"code","message"}}. Works against branchgate or any such device.
import { ClientError } from './client-error.js';
import {
  type ConnectionOptions,
  describeRequest,
  HttpExchange,
  jsonBody,
  parseBaseUrl,
  statusError,
} from './http-exchange.js';

/** The two collections. */
export type SmsType = 'sent' | 'received';

/** Where a message is in its life. */
export type SmsStatus = 'received' | 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';

/** A message as the contract gives it. */
export interface SmsMessage {
  id: string;
  type: SmsType;
  /** The other party's number (or an alphanumeric sender). */
  number: string;
  message: string;
  /** "YYYY-MM-DD HH:MM:SS" in the server's time zone. */
  date: string;
  /** Unix seconds, as a string. */
  timestamp: string;
  status: SmsStatus;
  parts: number;
  /** `gsm7` or `ucs2` (`8bit` for a received data message on branchgate). */
  encoding: string;
  /** Why a send failed (or a received message is incomplete or undecodable). */
  error?: string;
  /** branchgate: a received multipart message whose parts did not all arrive in time. */
  incomplete?: boolean;
  /** branchgate: the TP-MR the modem gave the first part of a sent message. */
  reference?: number;
  /** branchgate: a sent message's destination as typed, when it was normalised (`number` is what was sent). */
  number_typed?: string;
  /** branchgate: an 8-bit data message's bytes as hex. */
  data_hex?: string;
}

/** Options of an SmsClient. */
export interface SmsClientOptions extends ConnectionOptions {
  /** The device's base URL, e.g. `https://gw.example:8443`. */
  url: string;
  /** The admin password, sent as `auth` in every body; never part of an error message. */
  password: string;
}

/** Sends and reads SMS through a device speaking the SMS contract. Call close() when done. */
export class SmsClient {
  readonly #base: URL;
  readonly #password: string;
  readonly #http: HttpExchange;

  constructor(options: SmsClientOptions) {
    this.#base = parseBaseUrl(options.url);
    if (options.password === '') {
      throw new ClientError('bad_argument', 'password: must not be empty', { request: '' });
    }
    this.#password = options.password;
    // send-one waits for the modem (20 s on branchgate) before answering.
    this.#http = new HttpExchange(this.#base, { timeoutMs: 60_000, ...options });
  }

  /** Every message of one collection, oldest first. */
  async getAll(type: SmsType): Promise<SmsMessage[]> {
    const data = await this.#call('get-all', { type });
    if (!Array.isArray(data)) throw this.#bad('get-all', '"data" is not an array');
    return data.map((m, i) => this.#message('get-all', m, `data[${i}]`));
  }

  /** One message; a missing id is ClientError status 404 `not_found`. */
  async getOne(type: SmsType, id: string | number): Promise<SmsMessage> {
    return this.#message('get-one', await this.#call('get-one', { type, id: String(id) }), 'data');
  }

  /** Deletes one message and returns it as it was. */
  async deleteOne(type: SmsType, id: string | number): Promise<SmsMessage> {
    return this.#message('delete-one', await this.#call('delete-one', { type, id: String(id) }), 'data');
  }

  /** Sends a message; answers once the modem accepted it (`sent`) or after a bounded wait (`queued`). */
  async sendOne(to: string, message: string): Promise<SmsMessage> {
    return this.#message('send-one', await this.#call('send-one', { to, message }), 'data');
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.#http.close();
  }

  async #call(endpoint: string, fields: Record<string, string>): Promise<unknown> {
    const url = new URL(`api/sms/${endpoint}`, this.#base);
    const what = describeRequest('POST', url);
    const answer = await this.#http.send(
      'POST',
      url,
      { 'content-type': 'application/json' },
      JSON.stringify({ auth: this.#password, ...fields }),
    );
    if (answer.status < 200 || answer.status > 299) throw statusError(answer, what);
    const body = jsonBody(answer, what) as { status?: unknown; data?: unknown } | null;
    if (typeof body !== 'object' || body === null || body.status !== 'success' || !('data' in body)) {
      throw new ClientError('bad_response', 'answer is not {"status":"success","data":...}', {
        request: what,
        status: answer.status,
      });
    }
    return body.data;
  }

  #bad(endpoint: string, why: string): ClientError {
    return new ClientError('bad_response', why, {
      request: describeRequest('POST', new URL(`api/sms/${endpoint}`, this.#base)),
    });
  }

  #message(endpoint: string, value: unknown, where: string): SmsMessage {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.#bad(endpoint, `${where} is not a message object`);
    }
    const m = value as Record<string, unknown>;
    for (const f of ['id', 'type', 'number', 'message', 'date', 'timestamp', 'status', 'encoding']) {
      if (typeof m[f] !== 'string') throw this.#bad(endpoint, `${where}.${f} is not a string`);
    }
    if (typeof m.parts !== 'number') throw this.#bad(endpoint, `${where}.parts is not a number`);
    return value as SmsMessage;
  }
}
