// Test harness: a real engine (createModem) against the real simulator, over the in-memory link or
// over a real pty through serialport. Time is a manual scheduler shared by both ends.
import { setImmediate as nextTurn, setTimeout as realSleep } from 'node:timers/promises';
import {
  createManualScheduler,
  createModem,
  createSerialTransport,
  createSimulatedModem,
  createStreamTransport,
  type ManualScheduler,
  type Modem,
  type ModemOptions,
  type ModemTransport,
  type PtyLink,
  type SimulatedModem,
  type SimulatedModemOptions,
  servePty,
} from '../../../../src/sms/modem/index.js';

/** The two ways the engine reaches the simulator. */
export const LINKS = ['memory', 'pty'] as const;
export type LinkKind = (typeof LINKS)[number];

export interface Harness {
  kind: LinkKind;
  sim: SimulatedModem;
  modem: Modem;
  clock: ManualScheduler;
  pty: PtyLink | undefined;
  /** Lets in-flight I/O land: waits (bounded) until each side has read every byte the other wrote. */
  settle(): Promise<void>;
  /** Advances the manual clock timer by timer, letting I/O land in between, until cond() holds. */
  advanceUntil(cond: () => boolean, maxSteps?: number): Promise<void>;
  /** Waits (real time, bounded) for I/O to make cond() true, without moving the manual clock. */
  waitFor(cond: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function openHarness(
  kind: LinkKind,
  simOptions: SimulatedModemOptions = {},
  modemOptions: ModemOptions = {},
): Promise<Harness> {
  const clock = createManualScheduler();
  const sim = createSimulatedModem({ clock, ...simOptions });
  const pty: PtyLink | undefined = kind === 'memory' ? undefined : await servePty(sim);
  const inner = pty
    ? createSerialTransport({ path: pty.path, clock })
    : createStreamTransport(() => sim.connect(), 'simulator');
  // Counts the bytes the engine reads and writes, and its port operations under way, to tell
  // when the link is idle (opening a pty takes real time with no byte in flight).
  const seen = { read: 0, written: 0, busy: 0 };
  const tracked = async <T>(op: () => Promise<T>): Promise<T> => {
    seen.busy++;
    try {
      return await op();
    } finally {
      seen.busy--;
    }
  };
  const transport: ModemTransport = {
    description: inner.description,
    open: (handlers) =>
      tracked(() =>
        inner.open({
          data: (chunk) => {
            seen.read += chunk.length;
            handlers.data(chunk);
          },
          closed: (error) => handlers.closed(error),
        }),
      ),
    write: (data) =>
      tracked(async () => {
        await inner.write(data);
        seen.written += data.length;
      }),
    close: () => tracked(() => inner.close()),
  };
  const modem: Modem = createModem({ transport, options: modemOptions, clock });
  const idle = () => seen.busy === 0 && seen.read === sim.bytesSent && seen.written === sim.bytesReceived;
  const settle = async () => {
    // Wait until no port operation is under way and every byte each side wrote has been read by
    // the other. Bytes written into a port that is being reopened are lost and the counts never
    // meet again, so a byte mismatch alone is waited out for a bounded number of polls only.
    let quiet = 0;
    let mismatched = 0;
    for (let i = 0; i < 2000 && quiet < 2 && mismatched < 60; i++) {
      if (kind === 'memory') await nextTurn();
      else await realSleep(5);
      quiet = idle() ? quiet + 1 : 0;
      mismatched = seen.busy === 0 && !idle() ? mismatched + 1 : 0;
    }
    for (let i = 0; i < 5; i++) await nextTurn();
  };
  const waitFor = async (cond: () => boolean, what: string) => {
    for (let i = 0; i < 1000; i++) {
      if (cond()) return;
      if (kind === 'memory') await nextTurn();
      else await realSleep(5);
    }
    throw new Error(`gave up waiting for ${what}`);
  };
  return {
    kind,
    sim,
    modem,
    clock,
    pty,
    settle,
    waitFor,
    async advanceUntil(cond, maxSteps = 200) {
      for (let i = 0; i < maxSteps; i++) {
        await settle();
        if (cond()) return;
        const due = clock.nextDueIn();
        if (due !== undefined) clock.advance(due);
      }
      throw new Error(`condition not reached after ${maxSteps} timer steps`);
    },
    async close() {
      await modem.stop();
      await pty?.close();
    },
  };
}

/** The settled outcome of a promise, for asserting on rejections without unhandled ones. */
export function outcome<T>(promise: Promise<T>): {
  done: () => boolean;
  value: () => T;
  error: () => unknown;
} {
  let state: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      state = { ok: true, value };
    },
    (error: unknown) => {
      state = { ok: false, error };
    },
  );
  return {
    done: () => state !== undefined,
    value: () => {
      if (state?.ok !== true)
        throw new Error(`not fulfilled: ${state === undefined ? 'pending' : String(state.error)}`);
      return state.value;
    },
    error: () => {
      if (state?.ok !== false)
        throw new Error(state === undefined ? 'still pending' : 'fulfilled, not rejected');
      return state.error;
    },
  };
}
