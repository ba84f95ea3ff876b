// The modem layer's public surface: createModem over a transport (serial port or stream), its
// options, errors and events, and the simulated modem. See docs/modem.md.
export type { AtFrame, FinalResult, Urc } from './at-frame.js';
export { AtLineParser, type AtLineParserOptions, classifyLine } from './at-line-parser.js';
export type { AtCommand, AtResponse } from './command-lifecycle.js';
export { createManualScheduler, type ManualScheduler } from './manual-scheduler.js';
export {
  type CreateModemParams,
  createModem,
  type Modem,
  type ModemDown,
  type ModemEvents,
  type ModemState,
} from './modem.js';
export { ModemError, type ModemErrorCode } from './modem-error.js';
export {
  DEFAULT_MODEM_OPTIONS,
  type ModemOptions,
  type ResolvedModemOptions,
  resolveModemOptions,
} from './modem-options.js';
export type { StoredMessage, StoredStatus } from './operations.js';
export { type Scheduler, systemScheduler, type Timer } from './scheduler.js';
export { createSerialTransport, type SerialTransportOptions } from './serial-transport.js';
export * from './sim/index.js';
export type { ModemStatus } from './startup.js';
export { createStreamTransport } from './stream-transport.js';
export type { ModemTransport, TransportHandlers } from './transport.js';
