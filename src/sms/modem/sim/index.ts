// The simulated modem's public surface: the simulator, its in-memory link and its pty server.

export { createDuplexPair } from './duplex-pair.js';
export { type PtyLink, type ServePtyOptions, servePty } from './pty-link.js';
export type {
  SimBehaviour,
  SimContext,
  SimIdentity,
  SimRadio,
  SimReply,
  SimState,
} from './sim-behaviours.js';
export { DEFAULT_BEHAVIOURS, DEFAULT_IDENTITY, DEFAULT_RADIO } from './sim-behaviours.js';
export type { SimCommand } from './sim-command-line.js';
export type { SimSlotStatus, SimStoredPdu } from './sim-storage.js';
export type {
  DeliverMessageOptions,
  SimFaults,
  SimSentMessage,
  SimulatedModem,
  SimulatedModemEvents,
  SimulatedModemOptions,
} from './sim-types.js';
export { createSimulatedModem } from './simulated-modem.js';
