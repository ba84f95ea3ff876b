// Encodes a message as SMS-SUBMIT PDUs for AT+CMGS (23.040 9.2.2.2): one per part, each with the
// SMSC prefix ("00" = the modem's SMSC) and the TPDU length the AT command needs.

import { encodeAddress, encodeSmsc } from './address.js';
import { buildPdu, checkOctet, partDcs, planParts } from './build-pdu.js';
import type { EncodedPdu, SubmitOptions } from './types.js';
import { encodeValidityPeriod } from './validity-period.js';

/** Encodes a message as one SMS-SUBMIT per part, each with its exact AT+CMGS length. */
export function encodeSubmit(options: SubmitOptions): EncodedPdu[] {
  const smsc = encodeSmsc(options.smsc);
  const destination = encodeAddress(options.to, 'TP-DA', false);
  const vp = options.validityPeriod === undefined ? undefined : encodeValidityPeriod(options.validityPeriod);
  const messageReference = checkOctet(options.messageReference ?? 0, 'messageReference');
  const protocolId = checkOctet(options.protocolId ?? 0, 'protocolId');
  return planParts(options, options).map((part) => {
    const fo =
      0x01 |
      (options.rejectDuplicates ? 0x04 : 0) |
      ((vp?.vpf ?? 0) << 3) |
      (options.statusReportRequest ? 0x20 : 0) |
      (part.concat ? 0x40 : 0);
    const head = [
      fo,
      messageReference,
      ...destination,
      protocolId,
      partDcs(part, options),
      ...(vp?.octets ?? []),
    ];
    return buildPdu(smsc, head, part);
  });
}
