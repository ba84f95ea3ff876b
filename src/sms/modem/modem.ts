// The modem: composes the transport, the line parser, the command queue, the URC router, the
// start-up recipe and recovery behind a small surface.
//
//   transport ──bytes──▶ AtLineParser ──frames──▶ CommandQueue ──answers──▶ operations
//                                                     └──unsolicited──▶ routeUnsolicited ──▶ events
import { EventEmitter } from 'node:events';
import { AtLineParser } from './at-line-parser.js';
import type { AtCommand, AtResponse } from './command-lifecycle.js';
import { CommandQueue } from './command-queue.js';
import { captureCallSite, ModemError, withCallSite } from './modem-error.js';
import { type ModemOptions, type ResolvedModemOptions, resolveModemOptions } from './modem-options.js';
import * as ops from './operations.js';
import { Recovery } from './recovery.js';
import { type Scheduler, systemScheduler } from './scheduler.js';
import { type ModemStatus, runStartup } from './startup.js';
import type { ModemTransport } from './transport.js';
import { routeUnsolicited } from './urc-router.js';

/** Why the modem went down. */
export interface ModemDown {
  reason: 'timeout' | 'port_closed';
  detail: string;
}

/** The events of a Modem, with their arguments. */
export interface ModemEvents {
  /** Start-up finished (after start() and after every recovery). */
  ready: [status: ModemStatus];
  /** The modem stopped answering or its port vanished; recovery has begun. */
  down: [info: ModemDown];
  /** A recovery attempt failed; another follows after nextDelayMs. */
  'recovery-failed': [error: unknown, attempt: number, nextDelayMs: number];
  /** +CMTI: a new message is stored at storage/index. */
  'sms-stored': [slot: { storage: string; index: number }];
  /** +CDS: a status report, PDU included. */
  'status-report': [report: { pdu: string; length: number }];
  /** +CDSI: a status report was stored at storage/index. */
  'status-report-stored': [slot: { storage: string; index: number }];
  /** +CMT: a message routed straight to us, PDU included (only with a CNMI that asks for it). */
  'sms-direct': [message: { pdu: string; length: number }];
  ring: [];
  /** Vendor noise, stray lines and discarded bytes, for logs. */
  noise: [text: string, reason: 'vendor' | 'stray' | 'discarded'];
}

/** Where the modem is in its life. */
export type ModemState = 'stopped' | 'starting' | 'ready' | 'recovering';

/** What createModem needs. */
export interface CreateModemParams {
  transport: ModemTransport;
  options?: ModemOptions;
  /** Time and timers (default: the system's). */
  clock?: Scheduler;
}

/** A modem driven with AT commands in PDU mode. */
export interface Modem extends EventEmitter<ModemEvents> {
  /** Current state. */
  readonly state: ModemState;
  /** What the last start-up learned (storage, SMSC), once ready. */
  readonly status: ModemStatus | undefined;
  /** The resolved options. */
  readonly options: ResolvedModemOptions;
  /** Opens the port and runs the start-up recipe; rejects (and closes the port) when that fails. */
  start(): Promise<ModemStatus>;
  /** Closes the port; queued and running commands reject with code 'stopped'. */
  stop(): Promise<void>;
  /** Every stored message (AT+CMGL=4). */
  listMessages(): Promise<ops.StoredMessage[]>;
  /** One stored message (AT+CMGR), undefined when the slot is empty. */
  readMessage(index: number): Promise<ops.StoredMessage | undefined>;
  /** Deletes a slot (AT+CMGD). */
  deleteMessage(index: number): Promise<void>;
  /** Sends an SMS-SUBMIT PDU (AT+CMGS); resolves with the message reference. */
  sendPdu(pdu: string, tpduLength: number): Promise<number>;
  /** Runs any AT command through the queue (for diagnostics); resolves with its information lines. */
  command(text: string, timeoutMs?: number): Promise<AtResponse>;
}

class AtModem extends EventEmitter<ModemEvents> implements Modem {
  readonly options: ResolvedModemOptions;
  private readonly transport: ModemTransport;
  private readonly scheduler: Scheduler;
  private readonly parser = new AtLineParser();
  private readonly queue: CommandQueue;
  private readonly recovery: Recovery;
  private generation = 0;
  private currentState: ModemState = 'stopped';
  private currentStatus: ModemStatus | undefined;

  constructor(params: CreateModemParams) {
    super();
    this.transport = params.transport;
    this.options = resolveModemOptions(params.options);
    this.scheduler = params.clock ?? systemScheduler;
    this.queue = new CommandQueue({
      scheduler: this.scheduler,
      queueTimeoutMs: this.options.queueTimeoutMs,
      write: (data) => this.transport.write(data),
      onUnsolicited: (frame) => this.emitUnsolicited(routeUnsolicited(frame)),
      onTimeout: (command) => this.goDown('timeout', `${command.text} got no answer`),
      onWriteError: (error) => this.portGone(error.message),
    });
    this.recovery = new Recovery({
      scheduler: this.scheduler,
      options: this.options,
      reopen: () => this.openAndStart(),
      onRecovered: (status) => this.becomeReady(status),
      onAttemptFailed: (error, attempt, next) => this.emit('recovery-failed', error, attempt, next),
    });
  }

  get state(): ModemState {
    return this.currentState;
  }

  get status(): ModemStatus | undefined {
    return this.currentStatus;
  }

  async start(): Promise<ModemStatus> {
    if (this.currentState !== 'stopped')
      throw new ModemError('error', `start() called while ${this.currentState}`);
    this.currentState = 'starting';
    this.recovery.resume();
    try {
      const status = await this.openAndStart();
      this.becomeReady(status);
      return status;
    } catch (err) {
      this.currentState = 'stopped';
      this.generation++;
      // Work queued while starting would otherwise wait for a start() nobody may call.
      this.queue.rejectAll('stopped', `the modem did not start: ${(err as Error).message}`);
      await this.transport.close().catch(() => {
        // the port is already gone; recovery opens a new one
      });
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.currentState = 'stopped';
    this.recovery.stop();
    this.generation++;
    this.queue.hold();
    this.queue.rejectAll('stopped', 'the modem was stopped');
    await this.transport.close().catch(() => {
      // the port is already gone; recovery opens a new one
    });
  }

  listMessages(): Promise<ops.StoredMessage[]> {
    return ops.listMessages(this.runner(captureCallSite(this.listMessages)), this.options);
  }

  readMessage(index: number): Promise<ops.StoredMessage | undefined> {
    return ops.readMessage(this.runner(captureCallSite(this.readMessage)), this.options, index);
  }

  deleteMessage(index: number): Promise<void> {
    return ops.deleteMessage(this.runner(captureCallSite(this.deleteMessage)), this.options, index);
  }

  sendPdu(pdu: string, tpduLength: number): Promise<number> {
    return ops.sendPdu(this.runner(captureCallSite(this.sendPdu)), this.options, pdu, tpduLength);
  }

  command(text: string, timeoutMs?: number): Promise<AtResponse> {
    const site = captureCallSite(this.command);
    if (!/^AT[\x20-\x7e]*$/i.test(text)) {
      // A CR, Ctrl-Z or ESC inside would smuggle a second command or a PDU onto the wire.
      const error = new ModemError('bad_argument', 'a command is "AT..." in printable ASCII, one line', {
        command: JSON.stringify(text),
      });
      return Promise.reject(withCallSite(error, site));
    }
    return this.runner(site)({
      text,
      timeoutMs: timeoutMs ?? this.options.commandTimeoutMs,
    });
  }

  private runner(site: ReturnType<typeof captureCallSite>): (command: AtCommand) => Promise<AtResponse> {
    return (command) => {
      if (this.currentState === 'stopped') {
        return Promise.reject(
          withCallSite(
            new ModemError('not_started', 'the modem is not started', { command: command.text }),
            site,
          ),
        );
      }
      return this.queue.run(command, { site });
    };
  }

  /** Closes whatever is open, opens afresh and runs start-up with the queue held. */
  private async openAndStart(): Promise<ModemStatus> {
    this.queue.hold();
    await this.transport.close().catch(() => {
      // the port is already gone; recovery opens a new one
    });
    const generation = ++this.generation;
    this.parser.reset();
    try {
      await this.transport.open({
        data: (chunk) => {
          if (generation === this.generation) this.queue.handleFrames(this.parser.push(chunk));
        },
        closed: (error) => {
          if (generation === this.generation) this.portGone(error?.message ?? 'closed by the other side');
        },
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ModemError('open_failed', `cannot open ${this.transport.description}: ${reason}`, {
        cause: err,
      });
    }
    if (generation !== this.generation || this.currentState === 'stopped') {
      // stop() was called while the port was opening: do not leave it open behind its back.
      await this.transport.close().catch(() => {
        // the port is already gone; recovery opens a new one
      });
      throw new ModemError('stopped', 'the modem was stopped while its port was opening');
    }
    const run = (text: string, timeoutMs?: number) =>
      this.queue.run({ text, timeoutMs: timeoutMs ?? this.options.commandTimeoutMs }, { internal: true });
    return runStartup(run, this.options, this.scheduler);
  }

  private becomeReady(status: ModemStatus): void {
    this.currentStatus = status;
    this.currentState = 'ready';
    this.queue.release();
    this.emit('ready', status);
  }

  private portGone(detail: string): void {
    this.queue.portLost(detail);
    this.goDown('port_closed', detail);
  }

  private goDown(reason: ModemDown['reason'], detail: string): void {
    if (this.currentState !== 'ready') return;
    this.currentState = 'recovering';
    this.queue.hold();
    this.emit('down', { reason, detail });
    this.recovery.trigger();
  }

  private emitUnsolicited(event: ReturnType<typeof routeUnsolicited>): void {
    switch (event.type) {
      case 'sms-stored':
        this.emit('sms-stored', { storage: event.storage, index: event.index });
        break;
      case 'status-report-stored':
        this.emit('status-report-stored', { storage: event.storage, index: event.index });
        break;
      case 'status-report':
        this.emit('status-report', { pdu: event.pdu, length: event.length });
        break;
      case 'sms-direct':
        this.emit('sms-direct', { pdu: event.pdu, length: event.length });
        break;
      case 'ring':
        this.emit('ring');
        break;
      case 'noise':
        this.emit('noise', event.text, event.reason);
        break;
    }
  }
}

/** Creates a modem on a transport; call start() to open it. */
export function createModem(params: CreateModemParams): Modem {
  return new AtModem(params);
}
