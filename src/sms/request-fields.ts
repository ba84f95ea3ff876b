// Validation of the SMS API's JSON bodies, field by field: each function returns the checked value
// or throws SmsError('bad_request') with a message naming the field and what was wrong.

import { AppError } from '../shared/errors.js';
import type { MessageType } from './message.js';
import { PduError, type SmsPart, splitText } from './pdu/index.js';
import { SmsError } from './sms-error.js';

/** The body as an object; anything else is a 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SmsError(
      'bad_request',
      'body: expected a JSON object such as {"auth":"...","type":"received"}',
    );
  }
  return body as Record<string, unknown>;
}

/** `type`: sent or received. */
export function parseType(value: unknown): MessageType {
  if (value === undefined) throw new SmsError('bad_request', 'type: missing; give "sent" or "received"');
  if (value !== 'sent' && value !== 'received') {
    throw new SmsError('bad_request', `type: ${describe(value)} is not "sent" or "received"`);
  }
  return value;
}

/** `id`: a string or a non-negative JSON integer. Null for a well-formed id that cannot exist (404). */
export function parseId(value: unknown): number | null {
  if (value === undefined || value === null) throw new SmsError('bad_request', 'id: missing');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new SmsError(
        'bad_request',
        `id: ${describe(value)} is not a message id (a string or an integer)`,
      );
    }
    return value;
  }
  if (typeof value !== 'string') {
    throw new SmsError('bad_request', `id: ${describe(value)} is not a message id (a string or an integer)`);
  }
  if (value === '') throw new SmsError('bad_request', 'id: empty');
  // Ids are shown without leading zeros; "007" is no id of ours.
  return /^(?:0|[1-9][0-9]{0,14})$/.test(value) ? Number(value) : null;
}

/** `to`: a phone number, optionally international (+), with spaces, dashes, dots and brackets ignored. */
export function parseTo(value: unknown): string {
  return parseDestination(value).number;
}

/** A destination as typed and as it is sent. */
export interface Destination {
  /** What is sent: E.164 (`+` and 7-15 digits) or a short code (3-8 digits). */
  number: string;
  /** What the user typed. */
  typed: string;
  kind: 'e164' | 'short_code';
}

/**
 * `to` of send-one, normalised: spaces, dashes, dots and parentheses dropped; `+CC...` and
 * `00CC...` are E.164 (7-15 digits); 3-8 digits not starting with 0 are a short code, sent as is;
 * any other run of digits is a national number, which takes `defaultCountryCode` (its trunk 0
 * dropped) and is refused without one. Every refusal says what was wrong.
 */
export function parseDestination(value: unknown, defaultCountryCode?: string): Destination {
  if (value === undefined)
    throw new SmsError('bad_request', 'to: missing; give a phone number such as "+15551234567"');
  if (typeof value !== 'string')
    throw new SmsError('bad_request', `to: ${describe(value)} is not a phone number`);
  const compact = value.replace(/[\s\-().]/g, '');
  if (!/^(\+|00)?[0-9]+$/.test(compact)) {
    throw new SmsError(
      'bad_request',
      `to: ${describe(value)} is not a phone number (digits, optionally after + or 00; spaces, dashes, dots and parentheses are ignored)`,
    );
  }
  const e164 = (digits: string): Destination => {
    if (digits.length < 7 || digits.length > 15)
      throw new SmsError(
        'bad_request',
        `to: ${describe(value)} has ${digits.length} digits after the country prefix; an international (E.164) number has 7 to 15`,
      );
    if (digits.startsWith('0'))
      throw new SmsError('bad_request', `to: ${describe(value)}: a country code never starts with 0`);
    return { number: `+${digits}`, typed: value, kind: 'e164' };
  };
  if (compact.startsWith('+')) return e164(compact.slice(1));
  if (compact.startsWith('00')) return e164(compact.slice(2));
  if (compact.length >= 3 && compact.length <= 8 && !compact.startsWith('0'))
    return { number: compact, typed: value, kind: 'short_code' };
  if (compact.length < 3)
    throw new SmsError('bad_request', `to: ${describe(value)} is too short (a short code has 3 to 8 digits)`);
  if (!defaultCountryCode)
    throw new SmsError(
      'bad_request',
      `to: ${describe(value)} is a national number; give it with its country code (+CC...), or start the server with --sms-default-country-code`,
    );
  return e164(`${defaultCountryCode}${compact.replace(/^0/, '')}`);
}

/** Checks a default country code (1-3 digits, not starting with 0); throws bad_config naming where it came from. */
export function checkCountryCode(value: string, where: string): string {
  const cc = value.replace(/^\+/, '');
  if (!/^[1-9][0-9]{0,2}$/.test(cc))
    throw new AppError(
      'bad_config',
      `${where} "${value}": a country calling code is 1 to 3 digits, e.g. 49 or +1`,
    );
  return cc;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `message`: a non-empty string that fits in maxParts parts; returns its planned parts. */
export function parseText(value: unknown, maxParts: number): { text: string; parts: SmsPart[] } {
  if (value === undefined) throw new SmsError('bad_request', 'message: missing');
  if (typeof value !== 'string')
    throw new SmsError('bad_request', `message: ${describe(value)} is not a string`);
  if (value.length === 0) throw new SmsError('bad_request', 'message: empty');
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    throw new SmsError('bad_request', `message: unpaired UTF-16 surrogate at index ${lone.index} (not text)`);
  }
  let parts: SmsPart[];
  try {
    parts = splitText(value);
  } catch (err) {
    if (err instanceof PduError) throw new SmsError('bad_request', `message: ${err.message}`);
    throw err;
  }
  if (parts.length > maxParts) {
    throw new SmsError(
      'bad_request',
      `message: needs ${parts.length} parts (${parts[0]?.encoding ?? 'gsm7'}), more than the maximum of ${maxParts}`,
    );
  }
  return { text: value, parts };
}

/** A short description of a value for an error message (never its whole content). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return String(value);
}

/** `from` of a simulated delivery: a phone number or an alphanumeric sender of up to 11 characters. */
export function parseSender(value: unknown): string {
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9 ]{0,10}$/.test(value)) return value;
  try {
    return parseTo(value);
  } catch {
    throw new SmsError(
      'bad_request',
      'from: expected a phone number or an alphanumeric sender of up to 11 characters',
    );
  }
}
