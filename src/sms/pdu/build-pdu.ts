// Shared tail of the encoders: SMSC prefix + TPDU octets -> EncodedPdu with the AT+CMGS length,
// and the per-part planning of a message body (text via splitText, or 8-bit data).

import { encodeSmsc } from './address.js';
import { encodeDcs } from './dcs.js';
import { bytesToHex } from './hex.js';
import { PduError } from './pdu-error.js';
import { checkReference, concatCapacityOctets, splitText } from './split-text.js';
import type {
  ConcatInfo,
  EncodeCommonOptions,
  EncodedPdu,
  MessageBody,
  PduEncoding,
  SmsAddress,
} from './types.js';
import { concatHeader, encodeUserData } from './user-data.js';

/** One part ready to encode: its payload, alphabet and concatenation header. */
export interface PlannedPart {
  payload: string | Uint8Array;
  encoding: PduEncoding;
  concat: ConcatInfo | undefined;
}

/** Plans the parts of a message body: text as splitText does, data in 140-octet (or header-less) chunks. */
export function planParts(body: MessageBody, options: EncodeCommonOptions): PlannedPart[] {
  if (body.data === undefined) {
    const split = splitText(body.text, {
      ...(body.forceUcs2 === undefined ? {} : { forceUcs2: body.forceUcs2 }),
      ...(options.reference === undefined ? {} : { reference: options.reference }),
      ...(options.referenceBits === undefined ? {} : { referenceBits: options.referenceBits }),
    });
    return split.map((p) => ({ payload: p.text, encoding: p.encoding, concat: p.concat }));
  }
  const data = body.data;
  const reference = options.reference ?? 0;
  const bits = checkReference(reference, options.referenceBits);
  if (data.length <= 140) return [{ payload: data, encoding: '8bit', concat: undefined }];
  const size = concatCapacityOctets(bits);
  const total = Math.ceil(data.length / size);
  if (total > 255)
    throw new PduError('text_too_long', 'data', undefined, `needs ${total} parts, at most 255`);
  return Array.from({ length: total }, (_, i) => ({
    payload: data.subarray(i * size, (i + 1) * size),
    encoding: '8bit' as const,
    concat: { reference, total, sequence: i + 1, referenceBits: bits },
  }));
}

/** Checks an octet-sized option. */
export function checkOctet(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 255) {
    throw new PduError('bad_option', field, undefined, `${value} is not an octet (0-255)`);
  }
  return value;
}

/** TP-DCS of a planned part. */
export function partDcs(part: PlannedPart, options: EncodeCommonOptions): number {
  const messageClass = options.messageClass;
  if (messageClass !== undefined && ![0, 1, 2, 3].includes(messageClass)) {
    throw new PduError('bad_option', 'messageClass', undefined, `${String(messageClass)} is not 0-3`);
  }
  return encodeDcs(part.encoding, messageClass);
}

/** TP-UDL + TP-UD of a planned part. */
export function partUserData(part: PlannedPart): number[] {
  return encodeUserData(part.encoding, part.payload, concatHeader(part.concat));
}

/** Joins the SMSC prefix and the TPDU into an EncodedPdu. */
export function finishPdu(
  smsc: string | SmsAddress | undefined,
  tpdu: number[],
  encoding: PduEncoding,
  concat: ConcatInfo | undefined,
): EncodedPdu {
  const prefix = encodeSmsc(smsc);
  const bytes = new Uint8Array(prefix.length + tpdu.length);
  bytes.set(prefix, 0);
  bytes.set(tpdu, prefix.length);
  return { pdu: bytesToHex(bytes), tpduLength: tpdu.length, encoding, concat };
}
