// The loop that owns the wire: one AT command at a time, in order, each with its timers. Frames
// from the parser come in through handleFrames(); anything not part of the current command's answer
// (URCs, noise, stray lines) goes out through onUnsolicited. The lifecycle logic itself is pure
// (command-lifecycle.ts); this file only performs its effects.
import { lineOwnership } from './answer-filter.js';
import type { AtFrame } from './at-frame.js';
import {
  type AtCommand,
  type AtResponse,
  advanceCommand,
  type LifecycleEffect,
  type LifecycleState,
  startCommand,
} from './command-lifecycle.js';
import { failureToError } from './failure-to-error.js';
import { type CallSite, captureCallSite, ModemError, withCallSite } from './modem-error.js';
import type { Scheduler, Timer } from './scheduler.js';

/** What the queue needs from its owner. */
export interface CommandQueueHooks {
  scheduler: Scheduler;
  /** Writes to the port; a rejection counts as a lost port. */
  write(data: string): Promise<void>;
  /** Frames that are not part of a command's answer. */
  onUnsolicited(frame: AtFrame): void;
  /** A command ran out of time: the owner decides whether the modem needs recovering. */
  onTimeout(command: AtCommand): void;
  /** A write failed: the owner treats the port as gone. */
  onWriteError(error: Error): void;
  /** How long a command may wait in the queue before it is rejected (queue_timeout). */
  queueTimeoutMs: number;
}

/** Options of one run() call. */
export interface RunOptions {
  /** Start-up and recovery commands: go first and run while the queue is held. */
  internal?: boolean;
  /** Where the operation was requested, for the error's stack (default: the caller of run()). */
  site?: CallSite;
}

interface Entry {
  readonly command: AtCommand;
  readonly internal: boolean;
  readonly site: CallSite;
  readonly resolve: (response: AtResponse) => void;
  readonly reject: (error: ModemError) => void;
  queueTimer: Timer | undefined;
}

interface Current {
  readonly entry: Entry;
  state: LifecycleState;
  timer: Timer | undefined;
}

/** A FIFO of AT commands with one on the wire at a time. */
export class CommandQueue {
  private readonly waiting: Entry[] = [];
  private current: Current | undefined;
  private held = true;

  constructor(private readonly hooks: CommandQueueHooks) {}

  /** Queues a command; resolves with its information lines, rejects with a ModemError. */
  run(command: AtCommand, options: RunOptions = {}): Promise<AtResponse> {
    const site = options.site ?? captureCallSite(this.run);
    return new Promise<AtResponse>((resolve, reject) => {
      const entry: Entry = {
        command,
        internal: options.internal === true,
        site,
        resolve,
        reject,
        queueTimer: undefined,
      };
      if (!entry.internal) {
        entry.queueTimer = this.hooks.scheduler.setTimer(this.hooks.queueTimeoutMs, () => {
          const i = this.waiting.indexOf(entry);
          if (i < 0) return;
          this.waiting.splice(i, 1);
          entry.reject(
            withCallSite(
              new ModemError(
                'queue_timeout',
                `still queued after ${this.hooks.queueTimeoutMs} ms (modem busy or down)`,
                {
                  command: command.text,
                },
              ),
              site,
            ),
          );
        });
      }
      if (entry.internal) {
        const firstExternal = this.waiting.findIndex((e) => !e.internal);
        this.waiting.splice(firstExternal < 0 ? this.waiting.length : firstExternal, 0, entry);
      } else {
        this.waiting.push(entry);
      }
      this.dispatch();
    });
  }

  /** Stops ordinary commands from going on the wire (start-up and recovery commands still run). */
  hold(): void {
    this.held = true;
  }

  /** Lets ordinary commands go again. */
  release(): void {
    this.held = false;
    this.dispatch();
  }

  /** Number of commands waiting, not counting the one on the wire. */
  get length(): number {
    return this.waiting.length;
  }

  /** True while a command is on the wire. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Feeds parser output. */
  handleFrames(frames: readonly AtFrame[]): void {
    for (const frame of frames) this.handleFrame(frame);
  }

  /** The port is gone: the command on the wire fails with port_closed; the waiting ones stay. */
  portLost(reason: string): void {
    const current = this.current;
    if (current === undefined) return;
    this.finish(current, undefined);
    current.entry.reject(
      withCallSite(
        new ModemError('port_closed', `port lost while waiting for the answer (${reason})`, {
          command: current.entry.command.text,
        }),
        current.entry.site,
      ),
    );
  }

  /** Rejects everything, on the wire and waiting, with the given code (used by stop()). */
  rejectAll(code: 'stopped' | 'port_closed', message: string): void {
    const current = this.current;
    if (current !== undefined) {
      this.finish(current, undefined);
      current.entry.reject(
        withCallSite(
          new ModemError(code, message, { command: current.entry.command.text }),
          current.entry.site,
        ),
      );
    }
    for (const entry of this.waiting.splice(0)) {
      if (entry.queueTimer !== undefined) this.hooks.scheduler.clearTimer(entry.queueTimer);
      entry.reject(withCallSite(new ModemError(code, message, { command: entry.command.text }), entry.site));
    }
  }

  private handleFrame(received: AtFrame): void {
    const current = this.current;
    let frame = received;
    if (current !== undefined && (received.kind === 'noise' || received.kind === 'line')) {
      const owner = lineOwnership(received.text, current.entry.command.text);
      if (owner === 'unsolicited') {
        this.hooks.onUnsolicited(received);
        return;
      }
      if (owner === 'answer') frame = { kind: 'line', text: received.text };
    }
    const forCommand = frame.kind === 'line' || frame.kind === 'final' || frame.kind === 'prompt';
    if (current === undefined || !forCommand) {
      this.hooks.onUnsolicited(frame);
      return;
    }
    const step = advanceCommand(current.entry.command, current.state, { type: 'frame', frame });
    this.apply(current, step.state, step.effects);
  }

  private dispatch(): void {
    if (this.current !== undefined) return;
    const index = this.held ? this.waiting.findIndex((e) => e.internal) : 0;
    if (index < 0 || index >= this.waiting.length) return;
    const [entry] = this.waiting.splice(index, 1);
    if (entry === undefined) return;
    if (entry.queueTimer !== undefined) this.hooks.scheduler.clearTimer(entry.queueTimer);
    const step = startCommand(entry.command);
    if (step.state === undefined) return;
    const current: Current = { entry, state: step.state, timer: undefined };
    this.current = current;
    this.apply(current, step.state, step.effects);
  }

  private apply(
    current: Current,
    next: LifecycleState | undefined,
    effects: readonly LifecycleEffect[],
  ): void {
    if (next !== undefined) current.state = next;
    for (const effect of effects) {
      switch (effect.type) {
        case 'write':
          this.arm(current, effect.armMs);
          this.write(effect.data);
          break;
        case 'done':
          this.finish(current, undefined);
          current.entry.resolve(effect.response);
          break;
        case 'failed': {
          this.finish(current, effect.write);
          const error = withCallSite(
            failureToError(current.entry.command, effect.failure),
            current.entry.site,
          );
          current.entry.reject(error);
          if (effect.failure.reason === 'timeout') this.hooks.onTimeout(current.entry.command);
          break;
        }
      }
    }
    this.dispatch();
  }

  private arm(current: Current, ms: number): void {
    if (current.timer !== undefined) this.hooks.scheduler.clearTimer(current.timer);
    current.timer = this.hooks.scheduler.setTimer(ms, () => {
      current.timer = undefined;
      if (this.current !== current) return;
      const step = advanceCommand(current.entry.command, current.state, { type: 'timeout' });
      this.apply(current, step.state, step.effects);
    });
  }

  private finish(current: Current, finalWrite: string | undefined): void {
    if (current.timer !== undefined) this.hooks.scheduler.clearTimer(current.timer);
    current.timer = undefined;
    if (this.current === current) this.current = undefined;
    if (finalWrite !== undefined) this.write(finalWrite);
  }

  private write(data: string): void {
    this.hooks.write(data).catch((err: unknown) => {
      this.hooks.onWriteError(err instanceof Error ? err : new Error(String(err)));
    });
  }
}
