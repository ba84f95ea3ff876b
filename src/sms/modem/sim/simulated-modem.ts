// A simulated LTE modem that speaks the AT dialogue in PDU mode over any duplex stream: SIM
// storage, network deliveries with +CMTI, sends with +CMGS and +CDS status reports, and fault
// switches. Host bytes ─▶ command lines / prompt payloads ─▶ behaviours ─▶ replies (delayed,
// garbled or dropped as the faults say) ─▶ host.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { decodePdu, encodeDeliver, encodeStatusReport, PduError } from '../../pdu/index.js';
import { type Scheduler, systemScheduler } from '../scheduler.js';
import { createDuplexPair } from './duplex-pair.js';
import {
  cmeErrorReply,
  DEFAULT_BEHAVIOURS,
  DEFAULT_IDENTITY,
  DEFAULT_RADIO,
  errorReply,
  type SimBehaviour,
  type SimContext,
  type SimIdentity,
  type SimRadio,
  type SimReply,
  type SimState,
} from './sim-behaviours.js';
import { parseCommandLine } from './sim-command-line.js';
import { GARBAGE_LINE, SimReplyWriter } from './sim-reply-writer.js';
import { SimStorage, type SimStoredPdu } from './sim-storage.js';
import type {
  DeliverMessageOptions,
  SimFaults,
  SimSentMessage,
  SimulatedModem,
  SimulatedModemEvents,
  SimulatedModemOptions,
} from './sim-types.js';

const CTRL_Z = 0x1a;
const ESC = 0x1b;

class Simulator extends EventEmitter<SimulatedModemEvents> implements SimulatedModem {
  readonly commands: string[] = [];
  readonly unknownCommands: string[] = [];
  readonly sent: SimSentMessage[] = [];
  readonly state: SimState;
  bytesReceived = 0;
  bytesSent = 0;
  private readonly storage: SimStorage;
  private readonly identity: SimIdentity;
  private readonly clock: Scheduler;
  private readonly behaviours: Record<string, SimBehaviour>;
  private readonly statusReports: boolean;
  private readonly statusReportDelayMs: number;
  private currentFaults: SimFaults;
  private link: Duplex | undefined;
  private isUnplugged = false;
  private input = '';
  private prompt: ((payload: string) => SimReply) | undefined;
  private readonly network: { pdu: string; tpduLength: number }[] = [];
  private concatRef = 0;
  private messageRef = 0;
  private readonly replies: SimReplyWriter;

  constructor(options: SimulatedModemOptions) {
    super();
    this.storage = new SimStorage(options.slots ?? 30);
    this.identity = { ...DEFAULT_IDENTITY, ...options.identity };
    this.clock = options.clock ?? systemScheduler;
    this.behaviours = { ...DEFAULT_BEHAVIOURS, ...options.behaviours };
    this.statusReports = options.statusReports ?? true;
    this.statusReportDelayMs = options.statusReportDelayMs ?? 1000;
    this.currentFaults = {
      noAnswer: false,
      garbage: false,
      noise: false,
      sendError: undefined,
      storageFull: false,
      slowMs: 0,
      ...options.faults,
    };
    this.state = {
      echo: options.echo ?? true,
      cmee: 0,
      cmgf: 0,
      cnmi: { mode: 0, mt: 0, bm: 0, ds: 0, bfr: 0 },
      smsc: options.smsc ?? '+15550000000',
      charset: 'GSM',
      simBusyLeft: options.simBusyQueries ?? 0,
      radio: { ...DEFAULT_RADIO, ...options.radio },
    };
    this.replies = new SimReplyWriter(
      this.clock,
      () => this.currentFaults,
      (data) => this.write(data),
    );
  }

  get faults(): Readonly<SimFaults> {
    return this.currentFaults;
  }

  get unplugged(): boolean {
    return this.isUnplugged;
  }

  get heldAtNetwork(): number {
    return this.network.length;
  }

  setRadio(radio: Partial<SimRadio>): void {
    this.state.radio = { ...this.state.radio, ...radio };
  }

  setFaults(faults: Partial<SimFaults>): void {
    const wasFull = this.currentFaults.storageFull;
    this.currentFaults = { ...this.currentFaults, ...faults };
    if (wasFull && !this.currentFaults.storageFull) this.drainNetwork();
  }

  connect(): Duplex {
    if (this.isUnplugged) throw new Error('simulated modem is unplugged');
    const [modemSide, hostSide] = createDuplexPair();
    this.attach(modemSide);
    return hostSide;
  }

  attach(stream: Duplex): void {
    if (this.link !== undefined && !this.link.destroyed) this.link.destroy();
    this.link = stream;
    this.input = '';
    this.prompt = undefined;
    stream.on('data', (chunk: Buffer) => {
      if (this.link === stream) this.receive(chunk);
    });
    stream.on('error', () => {
      // a link torn down by the engine side: the simulator just stops answering it
    });
    stream.on('close', () => {
      if (this.link === stream) this.link = undefined;
    });
  }

  dropPort(): void {
    this.isUnplugged = true;
    const link = this.link;
    this.link = undefined;
    link?.destroy();
    this.emit('unplugged');
  }

  plugIn(): void {
    this.isUnplugged = false;
    this.emit('plugged');
  }

  stored(): SimStoredPdu[] {
    return this.storage.list();
  }

  emitGarbage(): void {
    this.write(GARBAGE_LINE);
  }

  emitUnsolicited(line: string): void {
    this.write(`\r\n${line}\r\n`);
  }

  deliver(from: string, text: string, options: DeliverMessageOptions = {}): number[] {
    if (options.reference === undefined) this.concatRef = (this.concatRef + 1) % 256;
    const reference = options.reference ?? this.concatRef;
    const parts = encodeDeliver({
      from,
      text,
      serviceCentreTime: options.at ?? new Date(this.clock.now()),
      smsc: this.state.smsc,
      reference,
      ...(options.referenceBits === undefined ? {} : { referenceBits: options.referenceBits }),
      ...(options.forceUcs2 === undefined ? {} : { forceUcs2: options.forceUcs2 }),
    });
    const slots: number[] = [];
    for (const part of parts) {
      const slot = this.storeIncoming(part.pdu, part.tpduLength);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  private storeIncoming(pdu: string, tpduLength: number): number | undefined {
    if (this.state.cnmi.mt === 2 && this.link !== undefined) {
      // +CNMI mt=2: routed straight to the host, not stored.
      this.write(`\r\n+CMT: ,${tpduLength}\r\n${pdu}\r\n`);
      return undefined;
    }
    const index = this.currentFaults.storageFull ? undefined : this.storage.add(0, pdu, tpduLength);
    if (index === undefined) {
      this.network.push({ pdu, tpduLength });
      return undefined;
    }
    if (this.state.cnmi.mt === 1) this.emitUnsolicited(`+CMTI: "SM",${index}`);
    return index;
  }

  private drainNetwork(): void {
    while (
      this.network.length > 0 &&
      !this.currentFaults.storageFull &&
      this.storage.used < this.storage.size
    ) {
      const next = this.network.shift();
      if (next !== undefined) this.storeIncoming(next.pdu, next.tpduLength);
    }
  }

  private receive(chunk: Buffer): void {
    this.bytesReceived += chunk.length;
    for (const byte of chunk) {
      if (this.prompt !== undefined) {
        if (byte === CTRL_Z || byte === ESC) {
          const handler = this.prompt;
          const payload = this.input;
          this.prompt = undefined;
          this.input = '';
          if (this.state.echo) this.write(payload);
          this.answer(byte === ESC ? { lines: [], final: 'OK' } : handler(payload.trim()));
        } else if (byte !== 0x0d && byte !== 0x0a) {
          this.input += String.fromCharCode(byte);
        }
        continue;
      }
      if (byte === 0x0d) {
        const line = this.input;
        this.input = '';
        this.handleLine(line);
      } else if (byte !== 0x0a) {
        this.input += String.fromCharCode(byte);
        if (this.input.length > 4096) this.input = '';
      }
    }
  }

  private handleLine(line: string): void {
    const commands = parseCommandLine(line);
    if (commands === undefined) return;
    this.commands.push(line.trim());
    this.emit('command', line.trim());
    if (this.state.echo) this.write(`${line}\r`);
    if (this.currentFaults.noAnswer) return;
    const lines: string[] = [];
    for (let i = 0; i < commands.length; i++) {
      const command = commands[i];
      if (command === undefined) continue;
      const behaviour = this.behaviours[command.name];
      let reply: SimReply;
      if (behaviour === undefined) {
        this.unknownCommands.push(command.raw);
        this.emit('unknown', command.raw);
        reply = errorReply;
      } else {
        reply = behaviour(command, this.context());
      }
      if ('prompt' in reply) {
        if (i !== commands.length - 1) {
          this.answer(errorReply, lines);
          return;
        }
        this.prompt = reply.prompt;
        this.input = '';
        this.replies.prompt(lines);
        return;
      }
      lines.push(...reply.lines);
      if (reply.final !== 'OK') {
        this.answer({ lines: [], final: reply.final }, lines);
        return;
      }
    }
    this.answer({ lines: [], final: 'OK' }, lines);
  }

  private context(): SimContext {
    return {
      state: this.state,
      storage: this.storage,
      identity: this.identity,
      storageFull: this.currentFaults.storageFull,
      cmeError: (code) => cmeErrorReply(this.state, code),
      cmsError: (code) => ({ lines: [], final: `+CMS ERROR: ${code}` }),
      submit: (pdu, tpduLength) => this.submit(pdu, tpduLength),
      slotsFreed: () => this.drainNetwork(),
    };
  }

  private submit(pdu: string, tpduLength: number): SimReply {
    const cms = (code: number): SimReply => ({ lines: [], final: `+CMS ERROR: ${code}` });
    if (!/^(?:[0-9A-Fa-f]{2})+$/.test(pdu)) return cms(304);
    const smscLength = Number.parseInt(pdu.slice(0, 2), 16);
    if (pdu.length / 2 - 1 - smscLength !== tpduLength) return cms(304);
    let decoded: ReturnType<typeof decodePdu>;
    try {
      decoded = decodePdu(pdu);
    } catch (err) {
      if (err instanceof PduError) return cms(304);
      throw err;
    }
    if (decoded.kind !== 'submit') return cms(304);
    // 310: SIM not inserted; 331: no network service.
    if (this.state.radio.sim === 'absent') return cms(310);
    if (this.state.radio.registration !== 1 && this.state.radio.registration !== 5) return cms(331);
    if (this.currentFaults.sendError !== undefined) return cms(this.currentFaults.sendError);
    if (this.currentFaults.storageFull) return cms(322);
    this.messageRef = (this.messageRef + 1) % 256;
    const message: SimSentMessage = {
      messageReference: this.messageRef,
      pdu: pdu.toUpperCase(),
      tpduLength,
      to: decoded.destination.number,
      text: decoded.text,
      concat:
        decoded.concat === undefined
          ? undefined
          : {
              reference: decoded.concat.reference,
              total: decoded.concat.total,
              sequence: decoded.concat.sequence,
            },
      statusReportRequested: decoded.statusReportRequest,
    };
    this.sent.push(message);
    this.emit('sent', message);
    if (decoded.statusReportRequest && this.statusReports) this.scheduleStatusReport(message);
    return { lines: [`+CMGS: ${message.messageReference}`], final: 'OK' };
  }

  private scheduleStatusReport(message: SimSentMessage): void {
    const submittedAt = new Date(this.clock.now());
    this.clock.setTimer(this.statusReportDelayMs, () => {
      const report = encodeStatusReport({
        smsc: this.state.smsc,
        messageReference: message.messageReference,
        recipient: message.to,
        serviceCentreTime: submittedAt,
        dischargeTime: new Date(this.clock.now()),
        status: 0,
      });
      if (this.state.cnmi.ds === 1) {
        this.write(`\r\n+CDS: ${report.tpduLength}\r\n${report.pdu}\r\n`);
      } else if (this.state.cnmi.ds === 2) {
        const index = this.storage.add(0, report.pdu, report.tpduLength);
        if (index !== undefined) this.emitUnsolicited(`+CDSI: "SM",${index}`);
      }
    });
  }

  private answer(reply: SimReply, before: string[] = []): void {
    if ('prompt' in reply) return;
    this.replies.answer([...before, ...reply.lines], reply.final);
  }

  private write(data: string | Buffer): void {
    const link = this.link;
    if (link === undefined || link.destroyed) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    this.bytesSent += bytes.length;
    link.write(bytes);
  }
}

/** Creates a simulated modem; connect() it in memory or attach() it to a pty (see pty-link.ts). */
export function createSimulatedModem(options: SimulatedModemOptions = {}): SimulatedModem {
  return new Simulator(options);
}
