// Hex <-> bytes for PDUs, strict: an odd length or a non-hex character is a PduError with its
// position, where Buffer.from(hex, 'hex') would silently stop at the first bad character.

import { PduError } from './pdu-error.js';

const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[65 + i] = 10 + i;
  NIBBLE[97 + i] = 10 + i;
}

const BYTE_HEX: string[] = [];
for (let i = 0; i < 256; i++) BYTE_HEX.push(i.toString(16).toUpperCase().padStart(2, '0'));

function nibble(hex: string, index: number): number {
  const code = hex.charCodeAt(index);
  const value = code < 128 ? (NIBBLE[code] ?? -1) : -1;
  if (value < 0) {
    throw new PduError(
      'bad_hex',
      'PDU',
      index >> 1,
      `character ${JSON.stringify(hex[index])} at hex position ${index} is not a hex digit`,
    );
  }
  return value;
}

/** Decodes a hex string (either case) into bytes; throws PduError 'bad_hex' on an odd length or a bad digit. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) {
    throw new PduError('bad_hex', 'PDU', hex.length >> 1, `odd number of hex digits (${hex.length})`);
  }
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibble(hex, 2 * i) << 4) | nibble(hex, 2 * i + 1);
  return out;
}

/** Encodes bytes as uppercase hex, the form modems print and accept. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_HEX[bytes[i] ?? 0];
  return out;
}
