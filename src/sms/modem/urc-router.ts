// Unsolicited frames -> modem events. Pure: the modem (modem.ts) emits what this returns.
// +CMTI / +CDSI point at a storage slot; +CDS / +CMT carry the PDU itself; noise, stray lines and
// discarded bytes become 'noise' events so they are visible in logs but never in an answer.
import type { AtFrame } from './at-frame.js';

/** Events the modem emits for what it did not ask for. */
export type UnsolicitedEvent =
  | { type: 'sms-stored'; storage: string; index: number }
  | { type: 'status-report'; pdu: string; length: number }
  | { type: 'status-report-stored'; storage: string; index: number }
  | { type: 'sms-direct'; pdu: string; length: number }
  | { type: 'ring' }
  | { type: 'noise'; text: string; reason: 'vendor' | 'stray' | 'discarded' };

/** Maps one unsolicited frame to the event it means. */
export function routeUnsolicited(frame: AtFrame): UnsolicitedEvent {
  switch (frame.kind) {
    case 'urc': {
      const urc = frame.urc;
      switch (urc.type) {
        case 'cmti':
          return { type: 'sms-stored', storage: urc.storage, index: urc.index };
        case 'cdsi':
          return { type: 'status-report-stored', storage: urc.storage, index: urc.index };
        case 'cds':
          return { type: 'status-report', pdu: urc.pdu, length: urc.length };
        case 'cmt':
          return { type: 'sms-direct', pdu: urc.pdu, length: urc.length };
        case 'ring':
          return { type: 'ring' };
      }
      break;
    }
    case 'noise':
      return { type: 'noise', text: frame.text, reason: 'vendor' };
    case 'discarded':
      return { type: 'noise', text: frame.bytes.toString('hex'), reason: 'discarded' };
    case 'line':
      return { type: 'noise', text: frame.text, reason: 'stray' };
    case 'final':
      return { type: 'noise', text: frame.text, reason: 'stray' };
    case 'prompt':
      return { type: 'noise', text: '> ', reason: 'stray' };
  }
}
