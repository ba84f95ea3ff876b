// Encodes a message as SMS-DELIVER PDUs (23.040 9.2.2.1), as a network would hand them to a
// phone: what the simulated modem stores and prints in +CMGR / +CMGL.

import { encodeAddress, encodeSmsc } from './address.js';
import { buildPdu, checkOctet, partDcs, planParts } from './build-pdu.js';
import { encodeTimestamp } from './timestamp.js';
import type { DeliverOptions, EncodedPdu } from './types.js';

/** Encodes a message as one SMS-DELIVER per part (the simulated modem's received messages). */
export function encodeDeliver(options: DeliverOptions): EncodedPdu[] {
  const smsc = encodeSmsc(options.smsc);
  const sender = encodeAddress(options.from, 'TP-OA', true);
  const scts = encodeTimestamp(options.serviceCentreTime, 'TP-SCTS');
  const protocolId = checkOctet(options.protocolId ?? 0, 'protocolId');
  return planParts(options, options).map((part) => {
    const fo =
      (options.moreMessagesToSend ? 0 : 0x04) |
      (options.statusReportIndication ? 0x20 : 0) |
      (part.concat ? 0x40 : 0) |
      (options.replyPath ? 0x80 : 0);
    return buildPdu(smsc, [fo, ...sender, protocolId, partDcs(part, options), ...scts], part);
  });
}
