// Encodes a message as SMS-SUBMIT PDUs for AT+CMGS (23.040 9.2.2.2): one per part, each with the
// SMSC prefix ("00" = the modem's SMSC) and the TPDU length the AT command needs.

import { encodeAddress } from './address.js';
import { checkOctet, finishPdu, partDcs, partUserData, planParts } from './build-pdu.js';
import type { EncodedPdu, SubmitOptions } from './types.js';
import { encodeValidityPeriod } from './validity-period.js';

/** Encodes a message as one SMS-SUBMIT per part, each with its exact AT+CMGS length. */
export function encodeSubmit(options: SubmitOptions): EncodedPdu[] {
  const destination = encodeAddress(options.to, 'TP-DA', false);
  const vp = options.validityPeriod === undefined ? undefined : encodeValidityPeriod(options.validityPeriod);
  const messageReference = checkOctet(options.messageReference ?? 0, 'messageReference');
  const protocolId = checkOctet(options.protocolId ?? 0, 'protocolId');
  const parts = planParts(options, options);
  return parts.map((part) => {
    const fo =
      0x01 |
      (options.rejectDuplicates ? 0x04 : 0) |
      ((vp?.vpf ?? 0) << 3) |
      (options.statusReportRequest ? 0x20 : 0) |
      (part.concat ? 0x40 : 0);
    const tpdu = [
      fo,
      messageReference,
      ...destination,
      protocolId,
      partDcs(part, options),
      ...(vp?.octets ?? []),
      ...partUserData(part),
    ];
    return finishPdu(options.smsc, tpdu, part.encoding, part.concat);
  });
}
