// The public shapes of the SMS PDU codec (3GPP TS 23.040 / 23.038): decoded PDUs as a union on
// `kind`, text parts planned by splitText, and the options of the three encoders.

/** Alphabet of the user data, from TP-DCS. */
export type PduEncoding = 'gsm7' | 'ucs2' | '8bit';

/** Type of number of an address (TP-OA / TP-DA / TP-RA / SMSC), simplified from the TON bits. */
export type AddressType = 'international' | 'national' | 'alphanumeric' | 'unknown';

/** An address; `number` has a leading '+' when international, and is plain text when alphanumeric. */
export interface SmsAddress {
  number: string;
  type: AddressType;
}

/** Concatenation info from the user data header (IEI 0x00 for 8-bit, 0x08 for 16-bit references). */
export interface ConcatInfo {
  reference: number;
  total: number;
  sequence: number;
  referenceBits: 8 | 16;
}

/** A TP-SCTS style timestamp: the instant, plus the sender's time-zone offset in minutes east of UTC. */
export interface SmsTimestamp {
  date: Date;
  tzOffsetMinutes: number;
}

/** One information element of a user data header, as received. */
export interface InformationElement {
  iei: number;
  data: Uint8Array;
}

/** TP-VP as decoded: relative (TP-VPF 10), absolute (11) or enhanced (01, kept raw). */
export type ValidityPeriod =
  | { kind: 'relative'; minutes: number; raw: number }
  | { kind: 'absolute'; timestamp: SmsTimestamp }
  | { kind: 'enhanced'; raw: Uint8Array };

/** TP-VP as requested when encoding: relative minutes (rounded up to the next TP-VP step) or absolute. */
export type ValidityPeriodInput = { relativeMinutes: number } | { absolute: Date | SmsTimestamp };

/** Fields shared by decoded PDUs that carry user data. */
export interface DecodedUserData {
  /** TP-PID. */
  protocolId: number;
  /** TP-DCS as received. */
  dcs: number;
  encoding: PduEncoding;
  /** Message class from TP-DCS, when the DCS carries one. */
  messageClass: 0 | 1 | 2 | 3 | undefined;
  /** Decoded text ('' for 8-bit data). */
  text: string;
  /** The user data bytes after the header, for 8-bit data only. */
  data: Uint8Array | undefined;
  /** Every information element of the user data header, in order ([] without TP-UDHI). */
  udh: InformationElement[];
  concat: ConcatInfo | undefined;
  /**
   * What was irregular but decoded anyway, as gammu decodes it (a TP-UDL announcing more than
   * follows, octets after the user data, an alphanumeric address length that disagrees with its
   * octets); [] for a regular PDU.
   */
  warnings: string[];
}

/** An SMS-DELIVER (network to phone): what +CMGL/+CMGR print for received messages. */
export interface DecodedDeliver extends DecodedUserData {
  kind: 'deliver';
  smsc: SmsAddress | undefined;
  sender: SmsAddress;
  serviceCentreTime: SmsTimestamp;
  /** TP-MMS inverted: true when the SC has more messages waiting. */
  moreMessagesToSend: boolean;
  statusReportIndication: boolean;
  replyPath: boolean;
}

/** An SMS-SUBMIT (phone to network), as stored in SIM storage or built by encodeSubmit. */
export interface DecodedSubmit extends DecodedUserData {
  kind: 'submit';
  smsc: SmsAddress | undefined;
  /** TP-MR. */
  messageReference: number;
  destination: SmsAddress;
  validityPeriod: ValidityPeriod | undefined;
  statusReportRequest: boolean;
  rejectDuplicates: boolean;
  replyPath: boolean;
}

/** Coarse meaning of TP-ST (23.040 9.2.3.15). */
export type DeliveryStatusCategory = 'delivered' | 'pending' | 'failed';

/** An SMS-STATUS-REPORT, as in +CDS. Optional trailing user data (TP-PI) decodes into the user data fields. */
export interface DecodedStatusReport extends DecodedUserData {
  kind: 'status-report';
  smsc: SmsAddress | undefined;
  /** TP-MR of the SMS-SUBMIT this reports on. */
  messageReference: number;
  recipient: SmsAddress;
  serviceCentreTime: SmsTimestamp;
  dischargeTime: SmsTimestamp;
  /** TP-ST as received. */
  status: number;
  statusCategory: DeliveryStatusCategory;
  moreMessagesToSend: boolean;
  /** TP-SRQ: true when the report is about an SMS-COMMAND rather than an SMS-SUBMIT. */
  statusReportQualifier: boolean;
}

/** Any decoded PDU. */
export type DecodedPdu = DecodedDeliver | DecodedSubmit | DecodedStatusReport;

/** Options of decodePdu. */
export interface DecodeOptions {
  /** Default true: the PDU starts with the SMSC length octet, as modems print it in +CMGL/+CMGR/+CDS. */
  smscPrefix?: boolean;
}

/** Options of splitText. */
export interface SplitOptions {
  /** Use UCS-2 even when every character fits GSM-7. */
  forceUcs2?: boolean;
  /** Concatenation reference for a multipart message (default 0); the caller owns the counter. */
  reference?: number;
  /** Width of the concatenation reference (default 8). */
  referenceBits?: 8 | 16;
}

/** One planned part of a text: its slice, its alphabet and its concatenation header (multipart only). */
export interface SmsPart {
  text: string;
  encoding: 'gsm7' | 'ucs2';
  concat: ConcatInfo | undefined;
  /** Length of the text in septets (gsm7, escapes count two) or octets (ucs2), header excluded. */
  units: number;
}

/** The body of an encoded message: text (split as splitText does) or 8-bit data (one part, <= 140 octets). */
export type MessageBody =
  | { text: string; data?: never; forceUcs2?: boolean }
  | { data: Uint8Array; text?: never; forceUcs2?: never };

/** Options shared by encodeSubmit and encodeDeliver. */
export interface EncodeCommonOptions {
  /** SMSC address to put in the prefix; default none ("00": the modem's configured SMSC). */
  smsc?: string | SmsAddress;
  /** Concatenation reference when the text needs several parts (default 0). */
  reference?: number;
  /** Width of the concatenation reference (default 8). */
  referenceBits?: 8 | 16;
  /** Message class to put in TP-DCS; default none. */
  messageClass?: 0 | 1 | 2 | 3;
  /** TP-PID (default 0). */
  protocolId?: number;
}

/** Options of encodeSubmit. A string address is international with a leading '+', 'unknown' otherwise. */
export type SubmitOptions = EncodeCommonOptions &
  MessageBody & {
    to: string | SmsAddress;
    statusReportRequest?: boolean;
    validityPeriod?: ValidityPeriodInput;
    /** TP-MR of every part (default 0); modems put their own in and answer it in +CMGS: <mr>. */
    messageReference?: number;
    rejectDuplicates?: boolean;
  };

/** Options of encodeDeliver. A string sender that is not a number is encoded alphanumeric. */
export type DeliverOptions = EncodeCommonOptions &
  MessageBody & {
    from: string | SmsAddress;
    /** TP-SCTS; a bare Date is written with a zero time-zone offset. */
    serviceCentreTime: Date | SmsTimestamp;
    moreMessagesToSend?: boolean;
    statusReportIndication?: boolean;
    replyPath?: boolean;
  };

/** Options of encodeStatusReport. */
export interface StatusReportOptions {
  smsc?: string | SmsAddress;
  messageReference: number;
  recipient: string | SmsAddress;
  serviceCentreTime: Date | SmsTimestamp;
  dischargeTime: Date | SmsTimestamp;
  /** TP-ST (0 = delivered). */
  status: number;
  moreMessagesToSend?: boolean;
  statusReportQualifier?: boolean;
}

/** One encoded PDU, ready for AT+CMGS=<tpduLength> / AT+CMGW or for a simulated +CMGR answer. */
export interface EncodedPdu {
  /** Uppercase hex including the SMSC prefix ("00" for the default SMSC). */
  pdu: string;
  /** Octets after the SMSC prefix: the length AT+CMGS and +CMGR/+CMGL announce. */
  tpduLength: number;
  encoding: PduEncoding;
  concat: ConcatInfo | undefined;
}
