// The timer functions a polling source uses, injectable so tests decide when it polls.

/** setTimeout/clearTimeout as a source uses them. */
export interface PollTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's own timers. */
export const realTimers: PollTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
