// The SMS PDU codec's public surface (pure, no I/O): decode what modems print, plan and encode
// SMS-SUBMIT for AT+CMGS, and encode SMS-DELIVER / SMS-STATUS-REPORT for the simulated modem.

import type {
  DecodedPdu,
  DecodeOptions,
  DeliverOptions,
  EncodedPdu,
  SmsPart,
  SplitOptions,
  StatusReportOptions,
  SubmitOptions,
} from './types.js';

export { PduError, type PduErrorCode } from './pdu-error.js';
export type * from './types.js';

/** Decodes a hex PDU (SMS-DELIVER, SMS-SUBMIT or SMS-STATUS-REPORT); throws PduError when malformed. */
export function decodePdu(_hex: string, _options?: DecodeOptions): DecodedPdu {
  throw new Error('not implemented');
}

/** Splits a text into SMS parts: GSM-7 when every character fits, UCS-2 otherwise. */
export function splitText(_text: string, _options?: SplitOptions): SmsPart[] {
  throw new Error('not implemented');
}

/** Encodes a message as one SMS-SUBMIT per part, each with its exact AT+CMGS length. */
export function encodeSubmit(_options: SubmitOptions): EncodedPdu[] {
  throw new Error('not implemented');
}

/** Encodes a message as one SMS-DELIVER per part (the simulated modem's received messages). */
export function encodeDeliver(_options: DeliverOptions): EncodedPdu[] {
  throw new Error('not implemented');
}

/** Encodes one SMS-STATUS-REPORT (the simulated modem's +CDS). */
export function encodeStatusReport(_options: StatusReportOptions): EncodedPdu {
  throw new Error('not implemented');
}

/** Joins the texts of the decoded parts of one message in sequence order; throws when a part is missing. */
export function reassembleText(_parts: readonly DecodedPdu[]): string {
  throw new Error('not implemented');
}
