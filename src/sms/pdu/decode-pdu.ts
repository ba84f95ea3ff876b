// Decodes a hex PDU as modems print it (+CMGL, +CMGR, +CMT, +CDS) into a DecodedPdu:
// hex -> bytes -> [SMSC] -> first octet (TP-MTI picks the layout) -> fields -> user data.

import { readAddress, readSmsc } from './address.js';
import { decodeDcs } from './dcs.js';
import { hexToBytes } from './hex.js';
import { PduError } from './pdu-error.js';
import { PduReader } from './pdu-reader.js';
import { readTimestamp } from './timestamp.js';
import type {
  DecodedDeliver,
  DecodedPdu,
  DecodedStatusReport,
  DecodedSubmit,
  DecodeOptions,
  DeliveryStatusCategory,
  SmsAddress,
} from './types.js';
import { readUserData, type UserData } from './user-data.js';
import { readValidityPeriod } from './validity-period.js';

function readPidDcs(r: PduReader) {
  const protocolId = r.u8('TP-PID');
  const dcsOffset = r.pos;
  const dcs = r.u8('TP-DCS');
  return { protocolId, dcs, ...decodeDcs(dcs, dcsOffset) };
}

function deliver(r: PduReader, smsc: SmsAddress | undefined, fo: number): DecodedDeliver {
  const warnings: string[] = [];
  const sender = readAddress(r, 'TP-OA', warnings);
  const coding = readPidDcs(r);
  const serviceCentreTime = readTimestamp(r, 'TP-SCTS');
  const ud = readUserData(r, (fo & 0x40) !== 0, coding.encoding);
  return {
    kind: 'deliver',
    smsc,
    sender,
    serviceCentreTime,
    moreMessagesToSend: (fo & 0x04) === 0,
    statusReportIndication: (fo & 0x20) !== 0,
    replyPath: (fo & 0x80) !== 0,
    ...coding,
    ...ud,
    warnings: [...warnings, ...ud.warnings],
  };
}

function submit(r: PduReader, smsc: SmsAddress | undefined, fo: number): DecodedSubmit {
  const messageReference = r.u8('TP-MR');
  const warnings: string[] = [];
  const destination = readAddress(r, 'TP-DA', warnings);
  const coding = readPidDcs(r);
  const vpf = ((fo >> 3) & 0x03) as 0 | 1 | 2 | 3;
  const validityPeriod = vpf === 0 ? undefined : readValidityPeriod(r, vpf);
  return {
    kind: 'submit',
    smsc,
    messageReference,
    destination,
    validityPeriod,
    statusReportRequest: (fo & 0x20) !== 0,
    rejectDuplicates: (fo & 0x04) !== 0,
    replyPath: (fo & 0x80) !== 0,
    ...coding,
    ...withWarnings(readUserData(r, (fo & 0x40) !== 0, coding.encoding), warnings),
  };
}

/** The user data with the warnings found before it first. */
function withWarnings(ud: UserData, before: string[]): UserData {
  return { ...ud, warnings: [...before, ...ud.warnings] };
}

/** Coarse meaning of TP-ST (23.040 9.2.3.15); reserved values count as failures. */
export function statusCategory(status: number): DeliveryStatusCategory {
  if (status < 0x20) return 'delivered';
  if (status < 0x40) return 'pending';
  return 'failed';
}

function statusReport(r: PduReader, smsc: SmsAddress | undefined, fo: number): DecodedStatusReport {
  const messageReference = r.u8('TP-MR');
  const warnings: string[] = [];
  const recipient = readAddress(r, 'TP-RA', warnings);
  const serviceCentreTime = readTimestamp(r, 'TP-SCTS');
  const dischargeTime = readTimestamp(r, 'TP-DT');
  const status = r.u8('TP-ST');
  // TP-PI (23.040 9.2.3.27) says which of TP-PID, TP-DCS, TP-UDL follow; absent means none.
  const pi = r.remaining > 0 ? r.u8('TP-PI') : 0;
  const protocolId = pi & 0x01 ? r.u8('TP-PID') : 0;
  const dcsOffset = r.pos;
  const dcs = pi & 0x02 ? r.u8('TP-DCS') : 0;
  const coding = decodeDcs(dcs, dcsOffset);
  if (!(pi & 0x04) && r.remaining > 0) {
    throw new PduError(
      'bad_length',
      'TP-PI',
      r.pos,
      `${r.remaining} octets after the fields TP-PI announces`,
    );
  }
  const ud =
    pi & 0x04
      ? withWarnings(readUserData(r, (fo & 0x40) !== 0, coding.encoding), warnings)
      : { text: '', data: undefined, udh: [], concat: undefined, warnings };
  return {
    kind: 'status-report',
    smsc,
    messageReference,
    recipient,
    serviceCentreTime,
    dischargeTime,
    status,
    statusCategory: statusCategory(status),
    moreMessagesToSend: (fo & 0x04) === 0,
    statusReportQualifier: (fo & 0x20) !== 0,
    protocolId,
    dcs,
    ...coding,
    ...ud,
  };
}

/** Decodes a hex PDU (SMS-DELIVER, SMS-SUBMIT or SMS-STATUS-REPORT); throws PduError when malformed. */
export function decodePdu(hex: string, options: DecodeOptions = {}): DecodedPdu {
  const r = new PduReader(hexToBytes(hex.trim()));
  const smsc = options.smscPrefix === false ? undefined : readSmsc(r);
  const foOffset = r.pos;
  const fo = r.u8('TP-MTI');
  switch (fo & 0x03) {
    case 0:
      return deliver(r, smsc, fo);
    case 1:
      return submit(r, smsc, fo);
    case 2:
      return statusReport(r, smsc, fo);
    default:
      throw new PduError('bad_mti', 'TP-MTI', foOffset, 'message type 3 is reserved');
  }
}
