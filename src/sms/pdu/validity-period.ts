// TP-VP (23.040 9.2.3.12): relative (one octet, steps of 5 min, 30 min, 1 day, 1 week), absolute
// (a timestamp), or enhanced (seven octets, decoded raw only).

import { PduError } from './pdu-error.js';
import type { PduReader } from './pdu-reader.js';
import { encodeTimestamp, readTimestamp } from './timestamp.js';
import type { ValidityPeriod, ValidityPeriodInput } from './types.js';

/** Minutes that a relative TP-VP octet stands for. */
export function relativeVpMinutes(raw: number): number {
  if (raw <= 143) return (raw + 1) * 5;
  if (raw <= 167) return 720 + (raw - 143) * 30;
  if (raw <= 196) return (raw - 166) * 1440;
  return (raw - 192) * 10080;
}

const MAX_MINUTES = relativeVpMinutes(255);

/** The smallest relative TP-VP octet lasting at least `minutes` (1 to 63 weeks). */
export function relativeVpOctet(minutes: number): number {
  if (minutes <= 720) return Math.max(0, Math.ceil(minutes / 5) - 1);
  if (minutes <= 1440) return 143 + Math.ceil((minutes - 720) / 30);
  if (minutes <= 30 * 1440) return 166 + Math.ceil(minutes / 1440);
  return 192 + Math.ceil(minutes / 10080);
}

/** Reads TP-VP in the format TP-VPF (1..3) says. */
export function readValidityPeriod(r: PduReader, vpf: 1 | 2 | 3): ValidityPeriod {
  if (vpf === 2) {
    const raw = r.u8('TP-VP');
    return { kind: 'relative', minutes: relativeVpMinutes(raw), raw };
  }
  if (vpf === 3) return { kind: 'absolute', timestamp: readTimestamp(r, 'TP-VP') };
  const start = r.skip(7, 'TP-VP');
  return { kind: 'enhanced', raw: r.bytes.slice(start, start + 7) };
}

/** Encodes TP-VP; relative minutes round up to the next step. Returns TP-VPF and the octets. */
export function encodeValidityPeriod(input: ValidityPeriodInput): { vpf: 2 | 3; octets: number[] } {
  if ('absolute' in input) return { vpf: 3, octets: encodeTimestamp(input.absolute, 'TP-VP') };
  const minutes = input.relativeMinutes;
  if (!(minutes > 0 && minutes <= MAX_MINUTES)) {
    throw new PduError(
      'bad_validity',
      'TP-VP',
      undefined,
      `relative validity ${minutes} min is not in 1-${MAX_MINUTES}`,
    );
  }
  return { vpf: 2, octets: [relativeVpOctet(minutes)] };
}
