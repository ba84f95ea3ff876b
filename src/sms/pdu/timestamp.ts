// TP-SCTS / TP-DT / absolute TP-VP (23.040 9.2.3.11): seven swapped semi-octet pairs, local time
// of the service centre plus its offset from UTC in quarters of an hour (bit 3 of the tens = sign).

import { PduError } from './pdu-error.js';
import type { PduReader } from './pdu-reader.js';
import type { SmsTimestamp } from './types.js';

const MAX_QUARTERS = 79;
const FIELDS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;
const LIMITS: readonly (readonly [number, number])[] = [
  [0, 99],
  [1, 12],
  [1, 31],
  [0, 23],
  [0, 59],
  [0, 59],
];

function swapped(byte: number, field: string, offset: number): number {
  const tens = byte & 0x0f;
  const units = byte >> 4;
  if (tens > 9 || units > 9) {
    throw new PduError(
      'bad_semi_octet',
      field,
      offset,
      `octet ${byte.toString(16).padStart(2, '0')} is not two digits`,
    );
  }
  return tens * 10 + units;
}

/** Reads a 7-octet timestamp of `field`; years are 2000-2099. */
export function readTimestamp(r: PduReader, field: string): SmsTimestamp {
  const start = r.skip(7, field);
  const v: number[] = [];
  for (let i = 0; i < 6; i++) {
    const value = swapped(r.bytes[start + i] ?? 0, field, start + i);
    const [min, max] = LIMITS[i] ?? [0, 0];
    if (value < min || value > max) {
      throw new PduError(
        'bad_timestamp',
        field,
        start + i,
        `${FIELDS[i]} ${value} is out of range ${min}-${max}`,
      );
    }
    v.push(value);
  }
  const tzByte = r.bytes[start + 6] ?? 0;
  const quarters = swapped(tzByte & 0xf7, field, start + 6);
  const tzOffsetMinutes = (tzByte & 0x08 ? -quarters : quarters) * 15;
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = v;
  const local = Date.UTC(2000 + year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  if (check.getUTCDate() !== day) {
    throw new PduError('bad_timestamp', field, start + 2, `day ${day} does not exist in month ${month}`);
  }
  return { date: new Date(local - tzOffsetMinutes * 60_000), tzOffsetMinutes: tzOffsetMinutes || 0 };
}

function bcd(value: number): number {
  return ((value % 10) << 4) | Math.floor(value / 10);
}

/** Encodes a timestamp (a bare Date is written as UTC); the offset must be whole quarters within +-79. */
export function encodeTimestamp(input: Date | SmsTimestamp, field: string): number[] {
  const { date, tzOffsetMinutes } = input instanceof Date ? { date: input, tzOffsetMinutes: 0 } : input;
  const quarters = tzOffsetMinutes / 15;
  if (!Number.isInteger(quarters) || Math.abs(quarters) > MAX_QUARTERS) {
    throw new PduError(
      'bad_timestamp',
      field,
      undefined,
      `time-zone offset ${tzOffsetMinutes} min is not a whole number of quarters within +-${MAX_QUARTERS}`,
    );
  }
  const time = date.getTime();
  if (Number.isNaN(time)) throw new PduError('bad_timestamp', field, undefined, 'invalid Date');
  const local = new Date(time + tzOffsetMinutes * 60_000);
  const year = local.getUTCFullYear();
  if (year < 2000 || year > 2099) {
    throw new PduError('bad_timestamp', field, undefined, `local year ${year} is outside 2000-2099`);
  }
  const abs = Math.abs(quarters);
  return [
    bcd(year - 2000),
    bcd(local.getUTCMonth() + 1),
    bcd(local.getUTCDate()),
    bcd(local.getUTCHours()),
    bcd(local.getUTCMinutes()),
    bcd(local.getUTCSeconds()),
    bcd(abs) | (quarters < 0 ? 0x08 : 0),
  ];
}
