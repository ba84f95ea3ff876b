// The life of one AT command as a pure state machine: start -> (prompt -> payload) -> final result
// or timeout. No I/O and no timers here; the queue (command-queue.ts) performs the effects.
//
//   start ──write "AT...\r", arm──▶ awaiting_prompt ──"> "──▶ write PDU+^Z, arm ──▶ awaiting_final
//   start ──write "AT...\r", arm──────────────────────────────────────────────────▶ awaiting_final
//   awaiting_* ──OK──▶ done(lines)   ──ERROR/+CMS/+CME──▶ failed   ──timeout──▶ failed (+ESC if at prompt)
import type { AtFrame, FinalResult } from './at-frame.js';

/** One AT command to run. */
export interface AtCommand {
  /** The command line without the trailing CR, e.g. `AT+CMGS=23`. */
  readonly text: string;
  /** Sent after the `> ` prompt, followed by Ctrl-Z (AT+CMGS, AT+CMGW). */
  readonly payload?: string;
  /** Milliseconds to wait for the answer (after the payload, for prompt commands). */
  readonly timeoutMs: number;
  /** Milliseconds to wait for the prompt (prompt commands only). */
  readonly promptTimeoutMs?: number;
}

/** A successful answer: the information lines before OK. */
export interface AtResponse {
  readonly lines: readonly string[];
}

/** Why a command failed, before it becomes a ModemError. */
export type AtFailure =
  | { reason: 'final'; result: Exclude<FinalResult, { status: 'ok' }> }
  | { reason: 'timeout'; phase: 'awaiting_prompt' | 'awaiting_final' };

/** Where a command is in its life. */
export interface LifecycleState {
  readonly phase: 'awaiting_prompt' | 'awaiting_final';
  readonly lines: readonly string[];
  readonly echoSeen: boolean;
}

/** What the queue must do after a step. */
export type LifecycleEffect =
  | { type: 'write'; data: string; armMs: number }
  | { type: 'done'; response: AtResponse }
  | { type: 'failed'; failure: AtFailure; write?: string };

/** The result of one step: the next state (undefined once finished) and the effects, in order. */
export interface LifecycleStep {
  readonly state: LifecycleState | undefined;
  readonly effects: readonly LifecycleEffect[];
}

const CTRL_Z = '\x1a';
const ESC = '\x1b';

/** Starts a command: write it and arm its first timer. */
export function startCommand(command: AtCommand): LifecycleStep {
  const prompt = command.payload !== undefined;
  return {
    state: { phase: prompt ? 'awaiting_prompt' : 'awaiting_final', lines: [], echoSeen: false },
    effects: [
      {
        type: 'write',
        data: `${command.text}\r`,
        armMs: prompt ? (command.promptTimeoutMs ?? command.timeoutMs) : command.timeoutMs,
      },
    ],
  };
}

/** Advances a command by one frame (information, final result or prompt) or its timer. */
export function advanceCommand(
  command: AtCommand,
  state: LifecycleState,
  event: { type: 'frame'; frame: AtFrame } | { type: 'timeout' },
): LifecycleStep {
  if (event.type === 'timeout') {
    const failure: AtFailure = { reason: 'timeout', phase: state.phase };
    // A modem left at the prompt would take the next command as PDU text: ESC cancels it.
    const effect: LifecycleEffect =
      state.phase === 'awaiting_prompt'
        ? { type: 'failed', failure, write: ESC }
        : { type: 'failed', failure };
    return { state: undefined, effects: [effect] };
  }
  const frame = event.frame;
  switch (frame.kind) {
    case 'prompt':
      if (state.phase !== 'awaiting_prompt' || command.payload === undefined) return { state, effects: [] };
      return {
        state: { ...state, phase: 'awaiting_final' },
        effects: [{ type: 'write', data: `${command.payload}${CTRL_Z}`, armMs: command.timeoutMs }],
      };
    case 'line':
      // With echo still on (before ATE0) the modem repeats the command line first.
      if (!state.echoSeen && state.lines.length === 0 && frame.text === command.text) {
        return { state: { ...state, echoSeen: true }, effects: [] };
      }
      return { state: { ...state, lines: [...state.lines, frame.text] }, effects: [] };
    case 'final':
      if (frame.result.status === 'ok') {
        return { state: undefined, effects: [{ type: 'done', response: { lines: state.lines } }] };
      }
      return {
        state: undefined,
        effects: [{ type: 'failed', failure: { reason: 'final', result: frame.result } }],
      };
    default:
      return { state, effects: [] };
  }
}
