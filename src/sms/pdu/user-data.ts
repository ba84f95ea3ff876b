// TP-UDL + TP-UD (23.040 9.2.3.16, 9.2.3.24): the optional user data header (with the concatenation
// elements 0x00 and 0x08) followed by GSM-7 septets aligned by fill bits, UCS-2 units or octets.

import { packedLength, septetsToText, unpackSeptets } from './gsm7.js';
import { PduError } from './pdu-error.js';
import type { PduReader } from './pdu-reader.js';
import type { PduWriter } from './pdu-writer.js';
import type { ConcatInfo, InformationElement, PduEncoding } from './types.js';

const MAX_OCTETS = 140;
const MAX_SEPTETS = 160;

/** The decoded user data of a PDU. */
export interface UserData {
  text: string;
  data: Uint8Array | undefined;
  udh: InformationElement[];
  concat: ConcatInfo | undefined;
  warnings: string[];
}

function concatOf(ie: InformationElement, offset: number): ConcatInfo | undefined {
  const d = ie.data;
  const wanted = ie.iei === 0x00 ? 3 : 4;
  if (d.length !== wanted) {
    throw new PduError('bad_udh', 'TP-UD concatenation IE', offset, `IEDL ${d.length}, expected ${wanted}`);
  }
  const reference = ie.iei === 0x00 ? (d[0] ?? 0) : ((d[0] ?? 0) << 8) | (d[1] ?? 0);
  const total = d[wanted - 2] ?? 0;
  const sequence = d[wanted - 1] ?? 0;
  // 23.040 9.2.3.24.1: a zero total, or a sequence of 0 or beyond the total, voids the element.
  if (total === 0 || sequence === 0 || sequence > total) return undefined;
  return { reference, total, sequence, referenceBits: ie.iei === 0x00 ? 8 : 16 };
}

function readHeader(bytes: Uint8Array, start: number, udhl: number): Pick<UserData, 'udh' | 'concat'> {
  const udh: InformationElement[] = [];
  let concat: ConcatInfo | undefined;
  const end = start + 1 + udhl;
  let i = start + 1;
  while (i < end) {
    if (i + 2 > end)
      throw new PduError('bad_udh', 'TP-UDH', i, 'information element header runs past TP-UDHL');
    const iei = bytes[i] ?? 0;
    const length = bytes[i + 1] ?? 0;
    if (i + 2 + length > end) {
      throw new PduError(
        'bad_udh',
        'TP-UDH',
        i,
        `IE 0x${iei.toString(16)} of ${length} octets runs past TP-UDHL`,
      );
    }
    const ie = { iei, data: bytes.slice(i + 2, i + 2 + length) };
    udh.push(ie);
    if (iei === 0x00 || iei === 0x08) concat = concatOf(ie, i);
    i += 2 + length;
  }
  return { udh, concat };
}

function ucs2ToText(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += 2)
    out += String.fromCharCode(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  return out;
}

/**
 * Reads TP-UDL and TP-UD. Like gammu, it decodes what is there where real networks and phones
 * are sloppy, with a warning for each irregularity: a TP-UDL announcing more than follows takes
 * the octets present (whole septets or UCS-2 units), and octets after the user data are ignored.
 */
export function readUserData(r: PduReader, udhi: boolean, encoding: PduEncoding): UserData {
  const udlOffset = r.pos;
  let udl = r.u8('TP-UDL');
  const warnings: string[] = [];
  const gsm7 = encoding === 'gsm7';
  const max = gsm7 ? MAX_SEPTETS : MAX_OCTETS;
  let octets = gsm7 ? packedLength(udl, 0) : udl;
  if (udl > max) {
    throw new PduError(
      'udl_overflow',
      'TP-UDL',
      udlOffset,
      `${gsm7 ? `${udl} septets (${octets} octets)` : `${udl} octets`} announced, ${r.remaining} octets present; at most ${max} allowed`,
    );
  }
  if (octets > r.remaining) {
    const present = r.remaining;
    warnings.push(
      `TP-UDL at byte ${udlOffset}: ${gsm7 ? `${udl} septets (${octets} octets)` : `${udl} octets`} announced, ${present} octets present; decoded what is there`,
    );
    udl = gsm7 ? Math.floor((present * 8) / 7) : encoding === 'ucs2' ? present - (present % 2) : present;
    octets = gsm7 ? packedLength(udl, 0) : udl;
  }
  if (octets < r.remaining) {
    warnings.push(
      `TP-UD at byte ${r.pos + octets}: ${r.remaining - octets} octets after the user data ignored`,
    );
  }
  const start = r.skip(octets, 'TP-UD');
  r.skip(r.remaining, 'TP-UD');
  const bytes = r.bytes;
  let header: Pick<UserData, 'udh' | 'concat'> = { udh: [], concat: undefined };
  let headerOctets = 0;
  if (udhi) {
    if (octets === 0)
      throw new PduError('bad_udh', 'TP-UDHL', start, 'TP-UDHI set but the user data is empty');
    const udhl = bytes[start] ?? 0;
    headerOctets = udhl + 1;
    if (headerOctets > octets) {
      throw new PduError(
        'bad_udh',
        'TP-UDHL',
        start,
        `header of ${headerOctets} octets exceeds the ${octets} of TP-UD`,
      );
    }
    header = readHeader(bytes, start, udhl);
  }
  if (gsm7) {
    const headerSeptets = Math.ceil((headerOctets * 8) / 7);
    if (headerSeptets > udl) {
      throw new PduError(
        'bad_udh',
        'TP-UDHL',
        start,
        `header of ${headerOctets} octets exceeds TP-UDL ${udl} septets`,
      );
    }
    const fill = headerSeptets * 7 - headerOctets * 8;
    const septets = unpackSeptets(bytes, start + headerOctets, fill, udl - headerSeptets);
    return { text: septetsToText(septets), data: undefined, ...header, warnings };
  }
  const payloadStart = start + headerOctets;
  const end = start + octets;
  if (encoding === '8bit') return { text: '', data: bytes.slice(payloadStart, end), ...header, warnings };
  if ((end - payloadStart) % 2 !== 0) {
    throw new PduError(
      'bad_length',
      'TP-UD',
      payloadStart,
      `UCS-2 text of ${end - payloadStart} octets is odd`,
    );
  }
  return { text: ucs2ToText(bytes, payloadStart, end), data: undefined, ...header, warnings };
}

/** Builds the user data header for a concatenated part, or [] for a single part. */
export function concatHeader(concat: ConcatInfo | undefined): number[] {
  if (concat === undefined) return [];
  if (concat.referenceBits === 8) return [5, 0x00, 3, concat.reference, concat.total, concat.sequence];
  return [6, 0x08, 4, concat.reference >> 8, concat.reference & 0xff, concat.total, concat.sequence];
}

/** Writes TP-UDL + TP-UD for a text (gsm7/ucs2) or data (8bit) payload with an optional header. */
export function writeUserData(
  w: PduWriter,
  encoding: PduEncoding,
  payload: string | Uint8Array,
  concat: ConcatInfo | undefined,
): void {
  const header = concatHeader(concat);
  const udlIndex = w.length;
  w.u8(0);
  w.bytes(header);
  if (encoding === 'gsm7') {
    const headerSeptets = Math.ceil((header.length * 8) / 7);
    const septets = w.gsm7(typeof payload === 'string' ? payload : '', headerSeptets * 7 - header.length * 8);
    w.set(udlIndex, headerSeptets + septets);
    return;
  }
  if (typeof payload === 'string') w.ucs2(payload);
  else w.bytes(payload);
  w.set(udlIndex, w.length - udlIndex - 1);
}
