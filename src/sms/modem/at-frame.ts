// The typed frames the AT line parser emits: what the modem said, one frame per line (or prompt),
// already classified into final results, information lines, URCs, vendor noise and discarded bytes.

/** A final result code: the end of a command's answer. */
export type FinalResult =
  | { status: 'ok' }
  | { status: 'error'; text: string }
  | { status: 'cms_error'; code: number | undefined; text: string }
  | { status: 'cme_error'; code: number | undefined; text: string };

/** An unsolicited result code the engine acts on. */
export type Urc =
  | { type: 'cmti'; storage: string; index: number }
  | { type: 'cdsi'; storage: string; index: number }
  | { type: 'cds'; length: number; pdu: string }
  | { type: 'cmt'; length: number; pdu: string }
  | { type: 'ring' };

/** One thing the modem said. */
export type AtFrame =
  | { kind: 'final'; result: FinalResult; text: string }
  | { kind: 'line'; text: string }
  | { kind: 'prompt' }
  | { kind: 'urc'; urc: Urc; text: string }
  | { kind: 'noise'; text: string }
  | { kind: 'discarded'; bytes: Buffer; reason: 'binary' | 'too_long' | 'orphan_pdu_header' };
