// Shared parts of the encoders: planning the parts of a message body (text via splitText, or
// 8-bit data), option checks, and SMSC prefix + TPDU -> EncodedPdu with the AT+CMGS length.

import { encodeDcs } from './dcs.js';
import { PduError } from './pdu-error.js';
import { PduWriter } from './pdu-writer.js';
import { checkReference, concatCapacityOctets, splitText } from './split-text.js';
import type { ConcatInfo, EncodeCommonOptions, EncodedPdu, MessageBody, PduEncoding } from './types.js';
import { writeUserData } from './user-data.js';

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

/** Checks the message class option and gives the TP-DCS of a part. */
export function partDcs(part: PlannedPart, options: EncodeCommonOptions): number {
  const messageClass = options.messageClass;
  if (messageClass !== undefined && ![0, 1, 2, 3].includes(messageClass)) {
    throw new PduError('bad_option', 'messageClass', undefined, `${String(messageClass)} is not 0-3`);
  }
  return encodeDcs(part.encoding, messageClass);
}

/**
 * Writes SMSC prefix, the TPDU head (`head` octets up to and including the fields before TP-UDL)
 * and the part's user data; returns the EncodedPdu.
 */
export function buildPdu(smsc: readonly number[], head: readonly number[], part: PlannedPart): EncodedPdu {
  const w = new PduWriter();
  w.bytes(smsc);
  w.bytes(head);
  writeUserData(w, part.encoding, part.payload, part.concat);
  return { pdu: w.toHex(), tpduLength: w.length - smsc.length, encoding: part.encoding, concat: part.concat };
}
