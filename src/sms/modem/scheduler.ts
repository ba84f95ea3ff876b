// Time for the modem layer, injected: every timeout, retry delay and simulated slow reply goes
// through a Scheduler, so tests drive time by hand and never wait on the wall clock.
import type { Clock } from '../../shared/clock.js';

/** A pending timer; pass it to Scheduler.clearTimer to cancel. */
export interface Timer {
  readonly id: number;
}

/** A clock that can also run a function later. */
export interface Scheduler extends Clock {
  /** Runs fn once after ms milliseconds. */
  setTimer(ms: number, fn: () => void): Timer;
  /** Cancels a timer; a no-op when it already ran. */
  clearTimer(timer: Timer): void;
}

/** The real clock and Node's timers. */
export const systemScheduler: Scheduler = (() => {
  const handles = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimer(ms, fn) {
      const id = next++;
      handles.set(
        id,
        setTimeout(() => {
          handles.delete(id);
          fn();
        }, ms),
      );
      return { id };
    },
    clearTimer(timer) {
      const h = handles.get(timer.id);
      if (h !== undefined) clearTimeout(h);
      handles.delete(timer.id);
    },
  };
})();

/** Resolves after ms on the given scheduler. */
export function sleep(scheduler: Scheduler, ms: number): Promise<void> {
  return new Promise((resolve) => scheduler.setTimer(ms, resolve));
}
