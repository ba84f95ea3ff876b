// Encodes an SMS-STATUS-REPORT (23.040 9.2.2.3) without the optional TP-PI tail: what the
// simulated modem prints after +CDS when a sent message is reported delivered or failed.

import { encodeAddress, encodeSmsc } from './address.js';
import { checkOctet } from './build-pdu.js';
import { PduWriter } from './pdu-writer.js';
import { encodeTimestamp } from './timestamp.js';
import type { EncodedPdu, StatusReportOptions } from './types.js';

/** Encodes one SMS-STATUS-REPORT (the simulated modem's +CDS). */
export function encodeStatusReport(options: StatusReportOptions): EncodedPdu {
  const smsc = encodeSmsc(options.smsc);
  const w = new PduWriter();
  w.bytes(smsc);
  w.u8(0x02 | (options.moreMessagesToSend ? 0 : 0x04) | (options.statusReportQualifier ? 0x20 : 0));
  w.u8(checkOctet(options.messageReference, 'messageReference'));
  w.bytes(encodeAddress(options.recipient, 'TP-RA', false));
  w.bytes(encodeTimestamp(options.serviceCentreTime, 'TP-SCTS'));
  w.bytes(encodeTimestamp(options.dischargeTime, 'TP-DT'));
  w.u8(checkOctet(options.status, 'status'));
  return { pdu: w.toHex(), tpduLength: w.length - smsc.length, encoding: 'gsm7', concat: undefined };
}
