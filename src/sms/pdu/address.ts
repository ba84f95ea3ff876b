// Addresses (23.040 9.1.2.5): TP-OA / TP-DA / TP-RA with a length in semi-octets, and the SMSC
// prefix with a length in octets. Digits are swapped semi-octets; alphanumeric senders are GSM-7.

import {
  gsm7Length,
  packedLength,
  packSeptets,
  septetsToText,
  textToSeptets,
  unpackSeptets,
} from './gsm7.js';
import { PduError } from './pdu-error.js';
import type { PduReader } from './pdu-reader.js';
import type { AddressType, SmsAddress } from './types.js';

const DIGITS = '0123456789*#abc';
const MAX_DIGITS = 20;
const MAX_ALPHA_SEPTETS = 11;

function typeOf(toa: number): AddressType {
  switch ((toa >> 4) & 0x07) {
    case 1:
      return 'international';
    case 2:
      return 'national';
    case 5:
      return 'alphanumeric';
    default:
      return 'unknown';
  }
}

function readDigits(r: PduReader, start: number, nibbles: number, field: string): string {
  let out = '';
  for (let i = 0; i < nibbles; i++) {
    const byte = r.bytes[start + (i >> 1)] ?? 0;
    const n = i & 1 ? byte >> 4 : byte & 0x0f;
    const digit = DIGITS[n];
    // Some encoders count the 0xF filler in the length; accept it as the last semi-octet only.
    if (n === 0x0f && i === nibbles - 1) break;
    if (digit === undefined) {
      throw new PduError(
        'bad_semi_octet',
        field,
        start + (i >> 1),
        `semi-octet ${n.toString(16)} is not a digit`,
      );
    }
    out += digit;
  }
  return out;
}

function make(toa: number, digits: string): SmsAddress {
  const type = typeOf(toa);
  return { number: type === 'international' ? `+${digits}` : digits, type };
}

/**
 * Reads TP-OA / TP-DA / TP-RA: length in useful semi-octets, type of address, value. An
 * alphanumeric address is read as gammu reads it: every septet its octets hold, less trailing
 * all-zero septets (fill bits, not an "@"), whatever the length says; a disagreement with the
 * length's own count goes to `warnings`.
 */
export function readAddress(r: PduReader, field: string, warnings?: string[]): SmsAddress {
  const lengthOffset = r.pos;
  const nibbles = r.u8(`${field} length`);
  const toa = r.u8(`${field} type`);
  const octets = (nibbles + 1) >> 1;
  if (octets > 10) {
    throw new PduError('bad_address', field, lengthOffset, `length ${nibbles} semi-octets exceeds 20`);
  }
  const start = r.skip(octets, field);
  if (typeOf(toa) === 'alphanumeric') {
    const septets = unpackSeptets(r.bytes, start, 0, Math.floor((octets * 8) / 7));
    let n = septets.length;
    while (n > 0 && septets[n - 1] === 0) n--;
    const byLength = Math.floor((nibbles * 4) / 7);
    if (n !== byLength) {
      warnings?.push(
        `${field} at byte ${lengthOffset}: alphanumeric length ${nibbles} semi-octets means ${byLength} characters; decoded the ${n} its octets hold`,
      );
    }
    return { number: septetsToText(septets.slice(0, n)), type: 'alphanumeric' };
  }
  return make(toa, readDigits(r, start, nibbles, field));
}

/** Reads the SMSC prefix (length in octets, then type and digits); undefined when its length is 0. */
export function readSmsc(r: PduReader): SmsAddress | undefined {
  const lengthOffset = r.pos;
  const octets = r.u8('SMSC length');
  if (octets === 0) return undefined;
  if (octets > 11)
    throw new PduError('bad_address', 'SMSC', lengthOffset, `length ${octets} octets exceeds 11`);
  const toa = r.u8('SMSC type');
  const start = r.skip(octets - 1, 'SMSC');
  let nibbles = 2 * (octets - 1);
  if (nibbles > 0 && (r.bytes[start + octets - 2] ?? 0) >> 4 === 0x0f) nibbles--;
  return make(toa, readDigits(r, start, nibbles, 'SMSC'));
}

interface ParsedAddress {
  toa: number;
  digits: string;
  alpha: boolean;
}

function parse(input: string | SmsAddress, field: string, allowAlpha: boolean): ParsedAddress {
  const addr: SmsAddress =
    typeof input === 'string'
      ? { number: input, type: /^\+[0-9*#]+$/.test(input) ? 'international' : 'unknown' }
      : input;
  let digits = addr.number;
  // In a bare string, letters mean an alphanumeric sender; digits a-c need an explicit SmsAddress.
  const isDigits = /^\+?[0-9*#]+$/.test(digits);
  if (addr.type === 'alphanumeric' || (typeof input === 'string' && !isDigits)) {
    if (!allowAlpha) {
      throw new PduError(
        'bad_address',
        field,
        undefined,
        `${JSON.stringify(addr.number)} is not a phone number`,
      );
    }
    const septets = gsm7Length(addr.number);
    if (septets < 1 || septets > MAX_ALPHA_SEPTETS) {
      throw new PduError(
        'bad_address',
        field,
        undefined,
        `alphanumeric address ${JSON.stringify(addr.number)} must be 1-11 GSM-7 septets`,
      );
    }
    return { toa: 0xd0, digits: addr.number, alpha: true };
  }
  if (addr.type === 'international' && digits.startsWith('+')) digits = digits.slice(1);
  if (!/^[0-9*#abc]+$/.test(digits) || digits.length > MAX_DIGITS) {
    throw new PduError(
      'bad_address',
      field,
      undefined,
      `${JSON.stringify(addr.number)} must be 1-${MAX_DIGITS} digits, optionally after '+'`,
    );
  }
  const toa = addr.type === 'international' ? 0x91 : addr.type === 'national' ? 0xa1 : 0x81;
  return { toa, digits, alpha: false };
}

function digitBytes(digits: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < digits.length; i += 2) {
    const lo = DIGITS.indexOf(digits[i] ?? '');
    const hi = i + 1 < digits.length ? DIGITS.indexOf(digits[i + 1] ?? '') : 0x0f;
    out.push((hi << 4) | lo);
  }
  return out;
}

/** Encodes TP-OA / TP-DA / TP-RA; a string is international with '+', alphanumeric (if allowed) when not digits. */
export function encodeAddress(input: string | SmsAddress, field: string, allowAlpha: boolean): number[] {
  const { toa, digits, alpha } = parse(input, field, allowAlpha);
  if (!alpha) return [digits.length, toa, ...digitBytes(digits)];
  const septets = textToSeptets(digits);
  const bytes = new Uint8Array(packedLength(septets.length, 0));
  packSeptets(septets, bytes, 0, 0);
  return [Math.ceil((septets.length * 7) / 4), toa, ...bytes];
}

/** Encodes the SMSC prefix; [0] (the modem's default SMSC) when `input` is undefined. */
export function encodeSmsc(input: string | SmsAddress | undefined): number[] {
  if (input === undefined) return [0];
  const { toa, digits } = parse(input, 'SMSC', false);
  const bytes = digitBytes(digits);
  return [bytes.length + 1, toa, ...bytes];
}
