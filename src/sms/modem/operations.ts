// The SMS operations in PDU mode (3GPP TS 27.005): list (+CMGL=4), read (+CMGR), delete (+CMGD)
// and send (+CMGS=<len>, prompt, PDU + Ctrl-Z, +CMGS: <mr>). Each builds its AT command, runs it
// through the queue and parses the answer; stored PDUs are decoded with the PDU codec.
import { type DecodedPdu, decodePdu, PduError } from '../pdu/index.js';
import type { AtCommand, AtResponse } from './command-lifecycle.js';
import { ModemError } from './modem-error.js';
import type { ResolvedModemOptions } from './modem-options.js';

/** Runs one ordinary (queued) command. */
export type RunCommand = (command: AtCommand) => Promise<AtResponse>;

/** <stat> of +CMGL/+CMGR in PDU mode. */
export type StoredStatus = 'unread' | 'read' | 'unsent' | 'sent';

const STATUS: readonly StoredStatus[] = ['unread', 'read', 'unsent', 'sent'];

/** A message in the modem's storage, as +CMGL / +CMGR show it. */
export interface StoredMessage {
  /** Storage slot. */
  index: number;
  status: StoredStatus;
  /** TPDU length the modem announced. */
  tpduLength: number;
  /** The PDU as printed (hex, SMSC prefix included). */
  pdu: string;
  /** The decoded PDU, or undefined when it did not decode (see decodeError). */
  decoded: DecodedPdu | undefined;
  /** Why the PDU did not decode; the raw PDU is still kept. */
  decodeError: PduError | undefined;
}

/** Lists every stored message (AT+CMGL=4). */
export async function listMessages(run: RunCommand, options: ResolvedModemOptions): Promise<StoredMessage[]> {
  const answer = await run({ text: 'AT+CMGL=4', timeoutMs: options.listTimeoutMs });
  const out: StoredMessage[] = [];
  const lines = answer.lines;
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i] ?? '';
    const m = /^\+CMGL:\s*(\d+)\s*,\s*(\d+)\s*,[^,]*,\s*(\d+)$/.exec(header);
    if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined) {
      throw new ModemError(
        'bad_response',
        `line ${i + 1} of the answer is not "+CMGL: <index>,<stat>,,<length>": ${JSON.stringify(header)}`,
        {
          command: 'AT+CMGL=4',
        },
      );
    }
    const pdu = lines[i + 1];
    if (pdu === undefined || !/^[0-9A-Fa-f]+$/.test(pdu)) {
      throw new ModemError('bad_response', `line ${i + 2} of the answer should be the PDU of slot ${m[1]}`, {
        command: 'AT+CMGL=4',
      });
    }
    i++;
    out.push(stored(Number(m[1]), Number(m[2]), Number(m[3]), pdu));
  }
  return out;
}

/** Reads one slot (AT+CMGR=<index>); undefined when the slot is empty. */
export async function readMessage(
  run: RunCommand,
  options: ResolvedModemOptions,
  index: number,
): Promise<StoredMessage | undefined> {
  checkIndex(index, 'AT+CMGR');
  const text = `AT+CMGR=${index}`;
  let answer: AtResponse;
  try {
    answer = await run({ text, timeoutMs: options.commandTimeoutMs });
  } catch (err) {
    // 321: invalid memory index, what most modems answer for an empty slot.
    if (err instanceof ModemError && err.code === 'cms_error' && err.modemCode === 321) return undefined;
    throw err;
  }
  if (answer.lines.length === 0) return undefined;
  const m = /^\+CMGR:\s*(\d+)\s*,[^,]*,\s*(\d+)$/.exec(answer.lines[0] ?? '');
  const pdu = answer.lines[1];
  if (m?.[1] === undefined || m[2] === undefined || pdu === undefined || !/^[0-9A-Fa-f]+$/.test(pdu)) {
    throw new ModemError(
      'bad_response',
      `expected "+CMGR: <stat>,,<length>" and a PDU, got ${JSON.stringify(answer.lines)}`,
      {
        command: text,
      },
    );
  }
  return stored(index, Number(m[1]), Number(m[2]), pdu);
}

/** Deletes one slot (AT+CMGD=<index>). */
export async function deleteMessage(
  run: RunCommand,
  options: ResolvedModemOptions,
  index: number,
): Promise<void> {
  checkIndex(index, 'AT+CMGD');
  await run({ text: `AT+CMGD=${index}`, timeoutMs: options.commandTimeoutMs });
}

/** Sends one SMS-SUBMIT PDU (hex, SMSC prefix included); resolves with the message reference. */
export async function sendPdu(
  run: RunCommand,
  options: ResolvedModemOptions,
  pdu: string,
  tpduLength: number,
): Promise<number> {
  if (!/^(?:[0-9A-Fa-f]{2})+$/.test(pdu)) {
    throw new ModemError('bad_argument', 'the PDU to send must be an even number of hex digits', {
      command: 'AT+CMGS',
    });
  }
  if (!Number.isInteger(tpduLength) || tpduLength < 1 || tpduLength > 164 || tpduLength > pdu.length / 2) {
    throw new ModemError(
      'bad_argument',
      `TPDU length ${tpduLength} does not fit the ${pdu.length / 2}-octet PDU`,
      {
        command: 'AT+CMGS',
      },
    );
  }
  const text = `AT+CMGS=${tpduLength}`;
  const answer = await run({
    text,
    payload: pdu.toUpperCase(),
    timeoutMs: options.sendTimeoutMs,
    promptTimeoutMs: options.promptTimeoutMs,
  });
  const line = answer.lines.find((l) => l.startsWith('+CMGS:'));
  const m = line === undefined ? null : /^\+CMGS:\s*(\d+)/.exec(line);
  if (m?.[1] === undefined) {
    throw new ModemError('bad_response', `expected "+CMGS: <mr>" but got ${JSON.stringify(answer.lines)}`, {
      command: text,
    });
  }
  return Number(m[1]);
}

function checkIndex(index: number, command: string): void {
  if (!Number.isInteger(index) || index < 0 || index > 65535) {
    throw new ModemError('bad_argument', `storage index must be an integer 0..65535, got ${index}`, {
      command,
    });
  }
}

function stored(index: number, stat: number, tpduLength: number, pdu: string): StoredMessage {
  let decoded: DecodedPdu | undefined;
  let decodeError: PduError | undefined;
  try {
    decoded = decodePdu(pdu);
  } catch (err) {
    if (!(err instanceof PduError)) throw err;
    decodeError = err;
  }
  return { index, status: STATUS[stat] ?? 'read', tpduLength, pdu: pdu.toUpperCase(), decoded, decodeError };
}
