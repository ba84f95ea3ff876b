// The SMS service of `serve`: opens the modem, keeps trying to start it until it answers, and runs
// the inbox collector and the outbox on it. The routes reach it through the SmsGateway surface.
import type { Store } from '../store/index.js';
import { InboxCollector } from './inbox-collector.js';
import type { SmsMessageRow } from './message.js';
import { getMessage, insertOutgoing, type OutgoingMessage } from './message-store.js';
import { type ModemOptions, type Scheduler, type SimulatedModem, systemScheduler } from './modem/index.js';
import { ModemMonitor, type ModemStateChange, type ModemStatusView } from './modem-monitor.js';
import { checkModemSpec, type OpenedModem, openModem } from './open-modem.js';
import { Outbox } from './outbox.js';
import { type SmsLog, silentLog } from './sms-log.js';
import { DEFAULT_SMS_OPTIONS, type SmsOptions } from './sms-options.js';

/** What the SMS routes need from the service. */
export interface SmsGateway {
  /** The most parts a message to send may need. */
  readonly maxParts: number;
  /** The country code national destinations take (serve --sms-default-country-code), if any. */
  readonly defaultCountryCode: string | undefined;
  /** True once the modem has answered since start (it may be recovering now: sends then queue). */
  modemReady(): boolean;
  /** Stores a message, hands it to the outbox and waits (boundedly) for the first attempt. */
  send(message: OutgoingMessage): Promise<SmsMessageRow>;
  /** The simulated modem behind `--modem sim|sim-pty`, else undefined. */
  readonly simulator: SimulatedModem | undefined;
  /** The modem's state and last polled health (signal, registration, SIM, storage). */
  modemStatus(): ModemStatusView;
  /** Polls the modem's health now and resolves with the status. */
  refreshModemStatus(): Promise<ModemStatusView>;
  /** Calls `listener` on every modem:state change; returns a function that stops it. */
  onModemState(listener: (change: ModemStateChange) => void): () => void;
}

/** What createSmsService needs. */
export interface SmsServiceParams {
  store: Store;
  /** The --modem value: sim, sim-pty or a device path. */
  modem: string;
  options?: SmsOptions;
  modemOptions?: ModemOptions;
  scheduler?: Scheduler;
}

/** A started service, as server.ts stops it. */
export interface StartedSms {
  name: string;
  stop(): Promise<void>;
}

const FIRST_START_WAIT_MS = 10_000;
const START_RETRY_MAX_MS = 30_000;

/** The SMS service; construct with createSmsService, then start(). */
export class SmsService implements SmsGateway {
  readonly maxParts: number;
  readonly defaultCountryCode: string | undefined;
  private readonly options: SmsOptions;
  private readonly scheduler: Scheduler;
  private opened: OpenedModem | undefined;
  private collector: InboxCollector | undefined;
  private outbox: Outbox | undefined;
  private everReady = false;
  private stopped = false;
  private startLoop: Promise<void> | undefined;
  private log: SmsLog = silentLog;
  private monitor: ModemMonitor | undefined;
  private readonly stateListeners = new Set<(change: ModemStateChange) => void>();

  constructor(private readonly p: SmsServiceParams) {
    checkModemSpec(p.modem);
    this.options = p.options ?? DEFAULT_SMS_OPTIONS;
    this.maxParts = this.options.maxParts;
    this.defaultCountryCode = this.options.defaultCountryCode;
    this.scheduler = p.scheduler ?? systemScheduler;
  }

  get simulator(): SimulatedModem | undefined {
    return this.opened?.simulator;
  }

  modemReady(): boolean {
    return this.everReady && !this.stopped;
  }

  modemStatus(): ModemStatusView {
    return (
      this.monitor?.status() ?? {
        modem: 'none',
        device: null,
        condition: null,
        health: null,
        polledAtMs: null,
        lastError: null,
      }
    );
  }

  async refreshModemStatus(): Promise<ModemStatusView> {
    await this.monitor?.pollNow();
    return this.modemStatus();
  }

  onModemState(listener: (change: ModemStateChange) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  async send(message: OutgoingMessage): Promise<SmsMessageRow> {
    const row = await insertOutgoing(this.p.store, message, this.scheduler.now());
    const outbox = this.outbox;
    if (outbox) {
      const attempt = outbox.waitForAttempt(row.id, this.options.sendWaitMs);
      outbox.kick();
      await attempt;
    }
    return (await getMessage(this.p.store, 'sent', row.id)) ?? row;
  }

  /** Opens the modem and starts everything, logging to log; waits a little for the modem's first start-up. */
  async start(log: SmsLog = silentLog): Promise<StartedSms> {
    this.log = log;
    const opened = await openModem(this.p.modem, this.scheduler, this.p.modemOptions);
    this.opened = opened;
    const { store } = this.p;
    const o = this.options;
    opened.modem.on('ready', () => {
      this.everReady = true;
    });
    opened.modem.on('down', (info) => log.warn({ reason: info.reason, detail: info.detail }, 'modem down'));
    this.collector = new InboxCollector({
      store,
      modem: opened.modem,
      scheduler: this.scheduler,
      pollMs: o.pollMs,
      partTimeoutMs: o.partTimeoutMs,
      log,
    });
    this.outbox = new Outbox({
      store,
      modem: opened.modem,
      scheduler: this.scheduler,
      retry: o.retry,
      pollMs: o.pollMs,
      log,
    });
    this.monitor = new ModemMonitor({
      modem: opened.modem,
      device: opened.description,
      scheduler: this.scheduler,
      intervalMs: o.statusPollMs,
      log,
    });
    this.monitor.on('modem:state', (change) => {
      for (const listener of this.stateListeners) listener(change);
    });
    this.monitor.start();
    this.collector.start();
    await this.outbox.start();
    this.startLoop = this.keepStarting();
    await Promise.race([this.startLoop, new Promise((r) => setTimeout(r, FIRST_START_WAIT_MS).unref())]);
    return { name: 'sms', stop: () => this.stop() };
  }

  /** Stops the collector, the outbox and the modem. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.monitor?.stop();
    // Stop taking new work, then stop the modem so a command on the wire ends now (a send in
    // flight goes back to the queue) instead of at its timeout.
    const collector = this.collector?.stop();
    const outbox = this.outbox?.stop();
    await this.opened?.modem.stop();
    await collector;
    await outbox;
    await this.startLoop;
    await this.opened?.close();
  }

  /** start() until the modem answers once; later losses are the modem's own recovery's business. */
  private async keepStarting(): Promise<void> {
    const opened = this.opened;
    if (!opened) return;
    let delay = 500;
    while (!this.stopped) {
      try {
        const status = await opened.modem.start();
        this.log.info(
          { modem: opened.description, storage: status.storage },
          `modem ready (${status.storage.used}/${status.storage.total} slots used)`,
        );
        return;
      } catch (err) {
        if (this.stopped) return;
        this.log.warn(
          {
            modem: opened.description,
            error: err instanceof Error ? err.message : String(err),
            retryInMs: delay,
          },
          'modem did not start; trying again',
        );
      }
      await new Promise((r) => setTimeout(r, delay).unref());
      delay = Math.min(delay * 2, START_RETRY_MAX_MS);
    }
  }
}

/** Creates the SMS service (checks the --modem value; opens nothing until start()). */
export function createSmsService(params: SmsServiceParams): SmsService {
  return new SmsService(params);
}
