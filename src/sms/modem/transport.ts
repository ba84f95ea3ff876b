// The byte pipe the engine talks through. Two implementations: a serial port (serial-transport.ts)
// and any Node duplex stream, such as the simulator's in-memory link (stream-transport.ts).

/** Callbacks a transport calls while open. */
export interface TransportHandlers {
  /** Bytes from the modem. */
  data(chunk: Buffer): void;
  /** The port went away (unplugged, closed by the other side, I/O error). Not called after close(). */
  closed(error: Error | undefined): void;
}

/** A reopenable byte pipe to a modem. */
export interface ModemTransport {
  /** For messages: the device path or a name. */
  readonly description: string;
  /** Opens the pipe; rejects when it cannot be opened now (recovery tries again later). */
  open(handlers: TransportHandlers): Promise<void>;
  /** Writes bytes; rejects when the pipe is not open. */
  write(data: string): Promise<void>;
  /** Closes the pipe; safe to call when already closed. */
  close(): Promise<void>;
}
