// TP-DCS (3GPP TS 23.038 4): which alphabet the user data uses and the message class, for the
// general data coding, message-waiting and data coding/message class groups.

import { PduError } from './pdu-error.js';
import type { PduEncoding } from './types.js';

/** What a TP-DCS octet says about the user data. */
export interface DataCoding {
  encoding: PduEncoding;
  messageClass: 0 | 1 | 2 | 3 | undefined;
}

const ALPHABETS: readonly PduEncoding[] = ['gsm7', '8bit', 'ucs2', 'gsm7'];

function classOf(dcs: number): 0 | 1 | 2 | 3 {
  return (dcs & 0x03) as 0 | 1 | 2 | 3;
}

/** Decodes TP-DCS; reserved codings are GSM-7 as 23.038 prescribes; compressed text is rejected. */
export function decodeDcs(dcs: number, offset: number): DataCoding {
  const group = dcs >> 4;
  if (group <= 0x07) {
    if (dcs & 0x20)
      throw new PduError('bad_dcs', 'TP-DCS', offset, `0x${hex(dcs)}: compressed text is not supported`);
    return {
      encoding: ALPHABETS[(dcs >> 2) & 0x03] ?? 'gsm7',
      messageClass: dcs & 0x10 ? classOf(dcs) : undefined,
    };
  }
  if (group === 0x0f) return { encoding: dcs & 0x04 ? '8bit' : 'gsm7', messageClass: classOf(dcs) };
  if (group === 0x0e) return { encoding: 'ucs2', messageClass: undefined };
  return { encoding: 'gsm7', messageClass: undefined };
}

/** Encodes TP-DCS in the general data coding group. */
export function encodeDcs(encoding: PduEncoding, messageClass: 0 | 1 | 2 | 3 | undefined): number {
  const alphabet = encoding === 'gsm7' ? 0x00 : encoding === '8bit' ? 0x04 : 0x08;
  return messageClass === undefined ? alphabet : 0x10 | alphabet | messageClass;
}

function hex(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}
