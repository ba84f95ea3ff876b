// The simulated modem's public shapes: options, fault switches, what it records, its events and
// the SimulatedModem interface itself (implemented in simulated-modem.ts).
import type { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { Scheduler } from '../scheduler.js';
import type { SimBehaviour, SimIdentity, SimRadio, SimState } from './sim-behaviours.js';
import type { SimStoredPdu } from './sim-storage.js';

/** Fault switches; change them at any time with setFaults(). */
export interface SimFaults {
  /** Read commands but never answer. */
  noAnswer: boolean;
  /** Put a line of binary garbage before every answer. */
  garbage: boolean;
  /** Put vendor noise lines (^RSSI, +QIND) inside every answer. */
  noise: boolean;
  /** Answer AT+CMGS with this +CMS ERROR after the PDU (e.g. 500, 331); undefined for none. */
  sendError: number | undefined;
  /** The SIM storage reports full: deliveries wait at the "network", AT+CMGS / AT+CMGW get +CMS ERROR 322. */
  storageFull: boolean;
  /** Delay every answer by this many milliseconds (on the simulator's clock). */
  slowMs: number;
}

/** Options of createSimulatedModem. */
export interface SimulatedModemOptions {
  /** SIM storage slots (default 30). */
  slots?: number;
  /** SMSC address the SIM holds (default "+15550000000"). */
  smsc?: string;
  identity?: Partial<SimIdentity>;
  /** Time for slow replies and status reports (default: the system's). */
  clock?: Scheduler;
  /** How many AT+CPIN? answers are +CME ERROR 14, SIM busy, before READY (default 0). */
  simBusyQueries?: number;
  /** Send a +CDS (or store it, +CDSI) when a submit asks for a status report (default true). */
  statusReports?: boolean;
  /** Delay from send to status report (default 1000). */
  statusReportDelayMs?: number;
  /** Echo on at power-up, as real modems (default true). */
  echo?: boolean;
  /** Replace or add command behaviours, by upper-case name ('+CGMI', 'I', ...). */
  behaviours?: Record<string, SimBehaviour>;
  /** The radio and SIM at start (default: home network, CSQ 21, SIM ready). */
  radio?: Partial<SimRadio>;
  /** Initial fault switches. */
  faults?: Partial<SimFaults>;
}

/** A message the simulator accepted with AT+CMGS. */
export interface SimSentMessage {
  messageReference: number;
  pdu: string;
  tpduLength: number;
  /** Destination number as decoded. */
  to: string;
  text: string;
  concat: { reference: number; total: number; sequence: number } | undefined;
  statusReportRequested: boolean;
}

/** Options of deliver(). */
export interface DeliverMessageOptions {
  /** Concatenation reference for a multipart text (default: a counter). */
  reference?: number;
  referenceBits?: 8 | 16;
  /** Force UCS-2. */
  forceUcs2?: boolean;
  /** TP-SCTS (default: the simulator's clock). */
  at?: Date;
}

/** Events of the simulator. */
export interface SimulatedModemEvents {
  /** A command line was received (after parsing, before answering). */
  command: [line: string];
  /** A command the simulator does not know; answered ERROR. */
  unknown: [command: string];
  /** A message was accepted with AT+CMGS. */
  sent: [message: SimSentMessage];
  /** The port was dropped (dropPort). */
  unplugged: [];
  /** The port is back (plugIn). */
  plugged: [];
}

/** A simulated modem; see docs/modem.md. */
export interface SimulatedModem extends EventEmitter<SimulatedModemEvents> {
  /** A fresh in-memory link: returns the host side; throws while unplugged. */
  connect(): Duplex;
  /** Serves the AT dialogue on a stream the caller made (e.g. socat's stdio for a pty). */
  attach(stream: Duplex): void;
  /** A network message arrives: stored (one slot per part) with +CMTI, or sent as +CMT with +CNMI mt=2; returns the slots used. */
  deliver(from: string, text: string, options?: DeliverMessageOptions): number[];
  /** Current fault switches. */
  readonly faults: Readonly<SimFaults>;
  /** Changes fault switches. */
  setFaults(faults: Partial<SimFaults>): void;
  /**
   * Changes the radio and SIM the status commands report: no signal `{ csq: 99, registration: 2 }`,
   * SIM removed `{ sim: 'absent' }`, roaming `{ registration: 5 }` (sends then fail as a real
   * modem's do: +CMS ERROR 310 without a SIM, 331 without a network).
   */
  setRadio(radio: Partial<SimRadio>): void;
  /** Writes one binary garbage line now. */
  emitGarbage(): void;
  /** Writes an unsolicited line now (e.g. "^RSSI: 12", "RING"). */
  emitUnsolicited(line: string): void;
  /** Closes the current link and refuses new ones until plugIn(). */
  dropPort(): void;
  /** Accepts links again. */
  plugIn(): void;
  /** True between dropPort() and plugIn(). */
  readonly unplugged: boolean;
  /** Occupied storage slots. */
  stored(): SimStoredPdu[];
  /** Network messages waiting for a free slot. */
  readonly heldAtNetwork: number;
  /** Every message sent, in order. */
  readonly sent: readonly SimSentMessage[];
  /** Every command line received, in order. */
  readonly commands: readonly string[];
  /** Commands answered ERROR because unknown. */
  readonly unknownCommands: readonly string[];
  /** Mutable AT state (echo, +CMEE, +CNMI, ...), for tests and diagnostics. */
  readonly state: Readonly<SimState>;
  /** Bytes read from the host so far. */
  readonly bytesReceived: number;
  /** Bytes written to the host so far (only those written to an open link). */
  readonly bytesSent: number;
}
