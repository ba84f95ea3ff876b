// Watches the modem's health for the status endpoints, the console and the metrics: polls it (see
// modem/health.ts) when it becomes ready and then every interval, and turns what it finds into
// `modem:state` events when the condition changes:
//
//   registered   first poll finds the modem registered (home or roaming)
//   lost         no registration (searching, denied, no signal), or the modem stopped answering
//   sim_missing  +CPIN answers "SIM not inserted"
//   recovered    registered again after lost or sim_missing
//
// Polls never overlap and are skipped while the modem is not ready (its own recovery runs then).
import { EventEmitter } from 'node:events';
import { HealthPoller, type ModemHealth } from './modem/health.js';
import type { Modem, ModemState, Scheduler, Timer } from './modem/index.js';
import type { SmsLog } from './sms-log.js';

/** The condition events are raised on. */
export type ModemCondition = 'registered' | 'lost' | 'sim_missing';

/** A `modem:state` event. */
export interface ModemStateChange {
  state: 'registered' | 'lost' | 'sim_missing' | 'recovered';
  previous: ModemCondition | null;
  /** Why, in words: "registration searching", "SIM not inserted", "modem down: timeout ...". */
  reason: string;
  atMs: number;
  health: ModemHealth | null;
}

/** What GET /api/modem/status answers. */
export interface ModemStatusView {
  /** The modem layer's state; `none` without a modem. */
  modem: ModemState | 'none';
  /** The port or `simulated`. */
  device: string | null;
  condition: ModemCondition | null;
  health: ModemHealth | null;
  polledAtMs: number | null;
  lastError: { message: string; atMs: number } | null;
}

/** The monitor's events. */
export interface ModemMonitorEvents {
  'modem:state': [change: ModemStateChange];
}

/** What the monitor is built from. */
export interface ModemMonitorParams {
  modem: Modem;
  device: string;
  scheduler: Scheduler;
  /** Time between polls (BRANCHGATE_SMS_STATUS_POLL_MS, default 30 s). */
  intervalMs: number;
  log: SmsLog;
}

function conditionOf(h: ModemHealth): { condition: ModemCondition; reason: string } {
  if (h.sim === 'not_inserted') return { condition: 'sim_missing', reason: 'SIM not inserted' };
  if (h.registration === 'home' || h.registration === 'roaming')
    return {
      condition: 'registered',
      reason: `registered (${h.registration})${h.operator ? ` on ${h.operator}` : ''}`,
    };
  const signal = h.signal.level === 0 ? ', no signal' : '';
  return { condition: 'lost', reason: `registration ${h.registration}${signal}` };
}

/** Polls the modem and raises modem:state events. */
export class ModemMonitor extends EventEmitter<ModemMonitorEvents> {
  private readonly poller: HealthPoller;
  private health: ModemHealth | null = null;
  private polledAtMs: number | null = null;
  private lastError: ModemStatusView['lastError'] = null;
  private condition: ModemCondition | null = null;
  private timer: Timer | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly p: ModemMonitorParams) {
    super();
    this.poller = new HealthPoller(async (text) => (await p.modem.command(text)).lines);
  }

  /** Listens to the modem and polls from its first ready on. */
  start(): void {
    this.p.modem.on('ready', this.onReady);
    this.p.modem.on('down', this.onDown);
    if (this.p.modem.state === 'ready') void this.pollNow();
  }

  stop(): void {
    this.stopped = true;
    this.p.modem.off('ready', this.onReady);
    this.p.modem.off('down', this.onDown);
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    this.timer = undefined;
  }

  status(): ModemStatusView {
    return {
      modem: this.p.modem.state,
      device: this.p.device,
      condition: this.condition,
      health: this.health,
      polledAtMs: this.polledAtMs,
      lastError: this.lastError,
    };
  }

  /** Polls now (or joins the poll under way) and resolves once it is recorded. */
  pollNow(): Promise<void> {
    this.polling ??= this.poll().finally(() => {
      this.polling = undefined;
      this.schedule();
    });
    return this.polling;
  }

  private readonly onReady = () => {
    void this.pollNow();
  };

  private readonly onDown = (info: { reason: string; detail: string }) => {
    const message = `modem down: ${info.reason} (${info.detail})`;
    this.lastError = { message, atMs: this.p.scheduler.now() };
    this.change('lost', message);
  };

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    this.timer = this.p.scheduler.setTimer(this.p.intervalMs, () => {
      this.timer = undefined;
      void this.pollNow();
    });
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.p.modem.state !== 'ready') return;
    try {
      const health = await this.poller.poll();
      this.health = health;
      this.polledAtMs = this.p.scheduler.now();
      const failed = Object.entries(health.errors);
      if (failed.length > 0) {
        const [command, message] = failed[0] as [string, string];
        this.lastError = { message: `${command}: ${message}`, atMs: this.polledAtMs };
      }
      const { condition, reason } = conditionOf(health);
      this.change(condition, reason);
    } catch (err) {
      this.lastError = {
        message: err instanceof Error ? err.message : String(err),
        atMs: this.p.scheduler.now(),
      };
    }
  }

  private change(next: ModemCondition, reason: string): void {
    const previous = this.condition;
    if (previous === next) return;
    this.condition = next;
    const state = next === 'registered' && previous !== null ? 'recovered' : next;
    const change: ModemStateChange = {
      state,
      previous,
      reason,
      atMs: this.p.scheduler.now(),
      health: this.health,
    };
    (next === 'registered' ? this.p.log.info : this.p.log.warn).call(
      this.p.log,
      { state, previous, reason },
      `modem ${state.replace('_', ' ')}`,
    );
    this.emit('modem:state', change);
  }
}
