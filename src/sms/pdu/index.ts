// The SMS PDU codec's public surface (pure, no I/O): decode what modems print, plan and encode
// SMS-SUBMIT for AT+CMGS, and encode SMS-DELIVER / SMS-STATUS-REPORT for the simulated modem.

export { decodePdu, statusCategory } from './decode-pdu.js';
export { encodeDeliver } from './encode-deliver.js';
export { encodeStatusReport } from './encode-status-report.js';
export { encodeSubmit } from './encode-submit.js';
export { gsm7Length } from './gsm7.js';
export { PduError, type PduErrorCode } from './pdu-error.js';
export { reassembleText } from './reassemble-text.js';
export { splitText } from './split-text.js';
export type * from './types.js';
