// Time is injected everywhere it matters (sessions, rate limits, timeouts), so tests never wait on the wall clock.

/** A source of the current time in milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
