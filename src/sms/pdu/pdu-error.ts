// The one error class of the PDU codec: a code naming what was wrong, the TPDU field and the byte
// offset (counted from the first octet of the hex PDU as given, SMSC prefix included).

import { AppError } from '../../shared/errors.js';

/** Why a PDU could not be decoded or a message could not be encoded. */
export type PduErrorCode =
  | 'bad_hex'
  | 'bad_length'
  | 'truncated'
  | 'udl_overflow'
  | 'bad_semi_octet'
  | 'bad_address'
  | 'bad_dcs'
  | 'bad_udh'
  | 'bad_mti'
  | 'bad_timestamp'
  | 'bad_validity'
  | 'text_too_long'
  | 'incomplete'
  | 'bad_option';

/** A malformed PDU or an impossible encoding request; `field` names the TPDU field (e.g. 'TP-UDL'). */
export class PduError extends AppError<PduErrorCode> {
  /** The TPDU field (3GPP TS 23.040 name) or option that was wrong. */
  readonly field: string;
  /** Byte offset in the PDU where the field starts; undefined for encoder option errors. */
  readonly offset: number | undefined;

  constructor(code: PduErrorCode, field: string, offset: number | undefined, detail: string) {
    super(code, `${field}${offset === undefined ? '' : ` at byte ${offset}`}: ${detail}`);
    this.field = field;
    this.offset = offset;
  }
}
