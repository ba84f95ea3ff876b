// The SMS message as the API shows it (DESIGN.md section 7) and its mapping from a stored row:
// ids as strings, the date in the exchange's time zone, unix seconds as a string.
import type { Selectable } from 'kysely';
import type { TimeFormatter } from '../shared/wall-time.js';
import type { SmsMessageTable } from '../store/index.js';

/** The two collections. */
export type MessageType = 'sent' | 'received';

/** Where a message is in its life. */
export type MessageStatus = 'received' | 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';

/** A message on the wire. */
export interface SmsMessage {
  id: string;
  type: MessageType;
  number: string;
  message: string;
  /** "YYYY-MM-DD HH:MM:SS" in the server's time zone. */
  date: string;
  /** Unix seconds, as a string. */
  timestamp: string;
  status: MessageStatus;
  parts: number;
  encoding: string;
  /** The modem's error, on a failed send (or a received PDU that did not decode). */
  error?: string;
  /** True on a received message whose parts did not all arrive before the reassembly timeout. */
  incomplete?: true;
  /** TP-MR the modem gave the first part, once sent. */
  reference?: number;
  /** On a sent message: the destination as typed, when send-one normalised it (`number` is what was sent). */
  number_typed?: string;
  /** On an 8-bit data message (encoding "8bit"): its bytes as hex (`message` holds the same hex). */
  data_hex?: string;
}

/** A stored message row. */
export type SmsMessageRow = Selectable<SmsMessageTable>;

/** The wire form of a stored message. */
export function toWireMessage(row: SmsMessageRow, dates: TimeFormatter): SmsMessage {
  const out: SmsMessage = {
    id: String(row.id),
    type: row.type as MessageType,
    number: row.number,
    message: row.message,
    date: dates.format(Math.floor(row.message_ms / 1000)),
    timestamp: String(Math.floor(row.message_ms / 1000)),
    status: row.status as MessageStatus,
    parts: row.parts,
    encoding: row.encoding,
  };
  if (row.error !== null && (row.status === 'failed' || row.type === 'received')) out.error = row.error;
  if (row.incomplete === 1) out.incomplete = true;
  if (row.reference !== null) out.reference = row.reference;
  if (row.encoding === '8bit') out.data_hex = row.message;
  if (row.number_typed !== null && row.number_typed !== undefined && row.number_typed !== row.number)
    out.number_typed = row.number_typed;
  return out;
}
