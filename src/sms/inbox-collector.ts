// The inbox collector: empties the modem's message storage into the store (and stores +CMT
// messages, which never reach the storage, as they come). It runs on start, on
// every +CMTI / +CDSI, whenever the modem comes back, and on a periodic poll (for modems that drop
// notifications). Each PDU is stored first and deleted from the modem only after its transaction
// committed, so a crash at any moment loses nothing; a PDU stored but not yet deleted is
// recognised on the next pass and only deleted.
//
//   modem storage ──AT+CMGL──▶ storeTakenPdu (commit) ──▶ AT+CMGD ──▶ (repeat while slots refill)
import type { Store } from '../store/index.js';
import { applyStatusReport } from './delivery-reports.js';
import { flushExpiredParts, pruneSeen, storeTakenPdu, type TakenPdu } from './inbox-store.js';
import type { Modem, Scheduler, Timer } from './modem/index.js';
import { decodePdu, PduError } from './pdu/index.js';
import { SingleFlight } from './single-flight.js';
import type { SmsLog } from './sms-log.js';

/** What the collector needs. */
export interface InboxCollectorParams {
  store: Store;
  modem: Modem;
  scheduler: Scheduler;
  /** Interval of the safety-net poll (default 30000). */
  pollMs?: number;
  /** How long the parts of a multipart message wait for the rest before being stored as incomplete. */
  partTimeoutMs: number;
  log: SmsLog;
}

// A storage that refills as fast as it is emptied (a network holding many messages) still ends a
// pass after this many listings; the next +CMTI or poll continues.
const MAX_ROUNDS = 50;
const SEEN_KEEP_MS = 30 * 86_400_000;

/** Moves received messages from the modem into the store; see the top of this file. */
export class InboxCollector {
  private stopped = true;
  private readonly flight = new SingleFlight(() => this.pass(), {
    afterIdle: () => this.schedule(),
    enabled: () => !this.stopped,
  });
  private timer: Timer | undefined;
  private readonly kickListener = () => this.kick();
  private readonly reportListener = (report: { pdu: string }) => {
    void this.applyDirectReport(report.pdu);
  };
  private readonly directListener = (message: { pdu: string }) => {
    void this.storeDirect(message.pdu);
  };

  constructor(private readonly p: InboxCollectorParams) {}

  /** Starts collecting (a first pass now). */
  start(): void {
    this.stopped = false;
    const m = this.p.modem;
    m.on('ready', this.kickListener);
    m.on('sms-stored', this.kickListener);
    m.on('status-report-stored', this.kickListener);
    m.on('status-report', this.reportListener);
    m.on('sms-direct', this.directListener);
    this.kick();
  }

  /** Stops after the PDU being handled, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    const m = this.p.modem;
    m.off('ready', this.kickListener);
    m.off('sms-stored', this.kickListener);
    m.off('status-report-stored', this.kickListener);
    m.off('status-report', this.reportListener);
    m.off('sms-direct', this.directListener);
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    await this.flight.idle();
  }

  /** Runs a pass now (or right after the current one). */
  kick(): void {
    this.flight.kick();
  }

  /** Resolves when no pass is running (for an orderly stop or a test's checkpoint). */
  async idle(): Promise<void> {
    await this.flight.idle();
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) this.p.scheduler.clearTimer(this.timer);
    this.timer = this.p.scheduler.setTimer(this.p.pollMs ?? 30_000, () => this.kick());
  }

  private async pass(): Promise<void> {
    const { store, modem, scheduler, partTimeoutMs, log } = this.p;
    try {
      for (let round = 0; round < MAX_ROUNDS && !this.stopped && modem.state === 'ready'; round++) {
        const slots = await modem.listMessages();
        // Messages we wrote or sent ourselves (SUBMIT) are not incoming; they stay where they are.
        const incoming = slots.filter((s) => s.decoded?.kind !== 'submit');
        if (incoming.length === 0) break;
        for (const slot of incoming) {
          if (this.stopped) return;
          const outcome = await storeTakenPdu(store, slot, scheduler.now(), partTimeoutMs);
          if (slot.decodeError)
            log.warn({ slot: slot.index, error: slot.decodeError.message }, 'sms: undecodable PDU kept');
          else if (slot.decoded && slot.decoded.warnings.length > 0)
            log.warn(
              { slot: slot.index, warnings: slot.decoded.warnings },
              'sms: irregular PDU decoded leniently',
            );
          await modem.deleteMessage(slot.index);
          if (outcome === 'duplicate') log.info({ slot: slot.index }, 'sms: slot already stored, deleted');
        }
      }
    } catch (err) {
      log.warn(
        { error: err instanceof Error ? err.message : String(err) },
        'sms inbox pass stopped; retrying later',
      );
    }
    try {
      const now = scheduler.now();
      await flushExpiredParts(store, now, partTimeoutMs);
      await pruneSeen(store, now, SEEN_KEEP_MS);
    } catch (err) {
      log.error({ err }, 'sms inbox: cannot flush expired parts');
    }
  }

  /** A +CMT message (routed to us, not stored on the modem): stored at once, like a listed one. */
  private async storeDirect(pdu: string): Promise<void> {
    let taken: TakenPdu;
    try {
      taken = { pdu, decoded: decodePdu(pdu), decodeError: undefined };
    } catch (err) {
      if (!(err instanceof PduError)) throw err;
      taken = { pdu, decoded: undefined, decodeError: err };
    }
    try {
      await storeTakenPdu(this.p.store, taken, this.p.scheduler.now(), this.p.partTimeoutMs);
    } catch (err) {
      this.p.log.error({ err }, 'sms: cannot store a +CMT message');
    }
  }

  /** A +CDS status report (not stored on the modem): applied at once. */
  private async applyDirectReport(pdu: string): Promise<void> {
    try {
      const d = decodePdu(pdu);
      if (d.kind === 'status-report') await applyStatusReport(this.p.store.db, d);
    } catch (err) {
      if (err instanceof PduError) this.p.log.warn({ error: err.message }, 'sms: undecodable status report');
      else this.p.log.error({ err }, 'sms: cannot apply a status report');
    }
  }
}
