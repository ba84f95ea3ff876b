// Encodes an SMS-STATUS-REPORT (23.040 9.2.2.3) without the optional TP-PI tail: what the
// simulated modem prints after +CDS when a sent message is reported delivered or failed.

import { encodeAddress } from './address.js';
import { checkOctet, finishPdu } from './build-pdu.js';
import { encodeTimestamp } from './timestamp.js';
import type { EncodedPdu, StatusReportOptions } from './types.js';

/** Encodes one SMS-STATUS-REPORT (the simulated modem's +CDS). */
export function encodeStatusReport(options: StatusReportOptions): EncodedPdu {
  const fo = 0x02 | (options.moreMessagesToSend ? 0 : 0x04) | (options.statusReportQualifier ? 0x20 : 0);
  const tpdu = [
    fo,
    checkOctet(options.messageReference, 'messageReference'),
    ...encodeAddress(options.recipient, 'TP-RA', false),
    ...encodeTimestamp(options.serviceCentreTime, 'TP-SCTS'),
    ...encodeTimestamp(options.dischargeTime, 'TP-DT'),
    checkOctet(options.status, 'status'),
  ];
  return finishPdu(options.smsc, tpdu, 'gsm7', undefined);
}
