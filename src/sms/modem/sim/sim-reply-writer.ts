// Turns the simulator's answers into bytes the way a modem in V1 format writes them, and applies
// the reply faults on the way out: slow replies (kept in order), a garbage line, vendor noise.
import type { Scheduler } from '../scheduler.js';
import type { SimFaults } from './sim-types.js';

/** A line of binary junk, as a modem with a flaky UART or a reboot in progress prints it. */
export const GARBAGE_LINE = Buffer.from([
  0x00, 0xff, 0xfe, 0x80, 0x7e, 0x67, 0x61, 0x72, 0x62, 0x07, 0x0d, 0x0a,
]);

/** Writes answers and prompts for the simulator, honouring the reply faults. */
export class SimReplyWriter {
  private nextReplyAt = 0;

  constructor(
    private readonly clock: Scheduler,
    private readonly faults: () => Readonly<SimFaults>,
    private readonly write: (data: string | Buffer) => void,
  ) {}

  /** Information lines then a final result code. */
  answer(lines: readonly string[], final: string): void {
    this.schedule(`${this.render(lines)}\r\n${final}\r\n`);
  }

  /** Information lines then the `> ` prompt, with no line end after it. */
  prompt(lines: readonly string[]): void {
    this.schedule(`${this.render(lines)}\r\n> `);
  }

  private render(lines: readonly string[]): string {
    const noise = this.faults().noise;
    const out: string[] = [];
    for (const line of lines) {
      out.push(`\r\n${line}\r\n`);
      if (noise) out.push('\r\n^RSSI: 17\r\n\r\n+QIND: "csq",21,99\r\n');
    }
    if (noise && lines.length === 0) out.push('\r\nSMS DONE\r\n');
    return out.join('');
  }

  /** Writes now, or after the slow-reply delay; never overtakes an earlier delayed reply. */
  private schedule(text: string): void {
    const { garbage, slowMs } = this.faults();
    const send = () => {
      if (garbage) this.write(GARBAGE_LINE);
      this.write(text);
    };
    const now = this.clock.now();
    if (slowMs <= 0 && this.nextReplyAt <= now) {
      send();
      return;
    }
    const at = Math.max(now + slowMs, this.nextReplyAt);
    this.nextReplyAt = at;
    this.clock.setTimer(at - now, send);
  }
}
