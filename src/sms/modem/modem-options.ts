// Every timeout and retry of the modem layer in one place, with defaults. Times in milliseconds.

/** Timeouts and retries of the AT engine; every field is optional and defaults as documented. */
export interface ModemOptions {
  /** Answer of an ordinary command (default 5000). */
  commandTimeoutMs?: number;
  /** From AT+CMGS=<len> to the `> ` prompt (default 5000). */
  promptTimeoutMs?: number;
  /** From the PDU + Ctrl-Z to +CMGS: <mr> and OK; the network round trip (default 60000). */
  sendTimeoutMs?: number;
  /** Answer of AT+CMGL=4, which can be long on a full SIM (default 20000). */
  listTimeoutMs?: number;
  /** How long a queued operation may wait for the wire, including a recovery (default 120000). */
  queueTimeoutMs?: number;
  /** Times AT+CPIN? is retried while the SIM answers +CME ERROR 14, SIM busy (default 10). */
  simBusyRetries?: number;
  /** Delay between those retries (default 1000). */
  simBusyRetryMs?: number;
  /** First delay before reopening the port after a failure (default 500). */
  reopenDelayMs?: number;
  /** Longest delay between reopen attempts; the delay doubles up to it (default 30000). */
  reopenDelayMaxMs?: number;
  /** Storage for AT+CPMS, read/list/delete (default "SM"). */
  storage?: string;
  /** AT+CNMI parameters: new messages as +CMTI, status reports as +CDS (default "2,1,0,1,0"). */
  cnmi?: string;
}

/** ModemOptions with every default filled in. */
export type ResolvedModemOptions = Required<ModemOptions>;

/** The defaults of ModemOptions. */
export const DEFAULT_MODEM_OPTIONS: ResolvedModemOptions = {
  commandTimeoutMs: 5000,
  promptTimeoutMs: 5000,
  sendTimeoutMs: 60_000,
  listTimeoutMs: 20_000,
  queueTimeoutMs: 120_000,
  simBusyRetries: 10,
  simBusyRetryMs: 1000,
  reopenDelayMs: 500,
  reopenDelayMaxMs: 30_000,
  storage: 'SM',
  cnmi: '2,1,0,1,0',
};

/** Fills the defaults in. */
export function resolveModemOptions(options: ModemOptions = {}): ResolvedModemOptions {
  return { ...DEFAULT_MODEM_OPTIONS, ...options };
}
