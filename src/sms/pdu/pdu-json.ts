// A decoded PDU as plain JSON, for `branchgate sms decode-pdu` and anything that logs PDUs: dates
// as ISO 8601 with the sender's offset beside them, bytes as hex, every field named as in
// DecodedPdu. Pure.
import type { DecodedPdu, SmsTimestamp, ValidityPeriod } from './types.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const time = (t: SmsTimestamp) => ({ date: t.date.toISOString(), tz_offset_minutes: t.tzOffsetMinutes });

function validity(v: ValidityPeriod | undefined) {
  if (v === undefined) return null;
  if (v.kind === 'relative') return { kind: v.kind, minutes: v.minutes, raw: v.raw };
  if (v.kind === 'absolute') return { kind: v.kind, ...time(v.timestamp) };
  return { kind: v.kind, raw: hex(v.raw) };
}

/** The JSON form of one decoded PDU. */
export function decodedPduJson(p: DecodedPdu): Record<string, unknown> {
  const common = {
    kind: p.kind,
    smsc: p.smsc ?? null,
    protocol_id: p.protocolId,
    dcs: p.dcs,
    encoding: p.encoding,
    message_class: p.messageClass ?? null,
    text: p.text,
    data: p.data === undefined ? null : hex(p.data),
    udh: p.udh.map((ie) => ({ iei: ie.iei, data: hex(ie.data) })),
    concat: p.concat ?? null,
    warnings: p.warnings,
  };
  if (p.kind === 'deliver')
    return {
      ...common,
      sender: p.sender,
      service_centre_time: time(p.serviceCentreTime),
      more_messages_to_send: p.moreMessagesToSend,
      status_report_indication: p.statusReportIndication,
    };
  if (p.kind === 'submit')
    return {
      ...common,
      message_reference: p.messageReference,
      destination: p.destination,
      validity_period: validity(p.validityPeriod),
      status_report_request: p.statusReportRequest,
    };
  return {
    ...common,
    message_reference: p.messageReference,
    recipient: p.recipient,
    service_centre_time: time(p.serviceCentreTime),
    discharge_time: time(p.dischargeTime),
    status: p.status,
    status_category: p.statusCategory,
  };
}
