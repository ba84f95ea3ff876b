// Runs an async pass at most once at a time: a kick while a pass runs asks for one more pass
// right after it, however many kicks came. The collector and the outbox both work this way.

/** A pass runner: kick() to run, idle() to wait until no pass runs. */
export class SingleFlight {
  private running: Promise<void> | undefined;
  private again = false;

  /**
   * `pass` does the work; `afterIdle` runs when a pass ends with no further kick pending;
   * `enabled` is asked before every pass (a stopped owner answers false).
   */
  constructor(
    private readonly pass: () => Promise<void>,
    private readonly options: { afterIdle?: () => void; enabled?: () => boolean } = {},
  ) {}

  /** Runs a pass now, or once more right after the current one. */
  kick(): void {
    if (this.options.enabled && !this.options.enabled()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      } else {
        this.options.afterIdle?.();
      }
    });
  }

  /** Resolves when no pass is running (the current one and any it asked for). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
