// A Scheduler whose time moves only when told to: tests (and the simulator in tests) use it so a
// timeout is a deterministic event, not a race with the wall clock.
import type { Scheduler, Timer } from './scheduler.js';

/** A Scheduler driven by advance(); also reports how many timers are pending. */
export interface ManualScheduler extends Scheduler {
  /** Moves time forward by ms, running every timer that falls due, in due order. */
  advance(ms: number): void;
  /** Number of timers not yet run or cleared. */
  pending(): number;
  /** Time until the next timer is due, or undefined when none is pending. */
  nextDueIn(): number | undefined;
}

/** Creates a manual scheduler starting at `start` milliseconds since the epoch. */
export function createManualScheduler(start = Date.UTC(2026, 0, 1)): ManualScheduler {
  let now = start;
  let seq = 1;
  const timers = new Map<number, { due: number; fn: () => void }>();
  const nextDue = (): [number, { due: number; fn: () => void }] | undefined => {
    let best: [number, { due: number; fn: () => void }] | undefined;
    for (const entry of timers) {
      if (best === undefined || entry[1].due < best[1].due) best = entry;
    }
    return best;
  };
  return {
    now: () => now,
    setTimer(ms: number, fn: () => void): Timer {
      const id = seq++;
      timers.set(id, { due: now + Math.max(0, ms), fn });
      return { id };
    },
    clearTimer(timer: Timer): void {
      timers.delete(timer.id);
    },
    advance(ms: number): void {
      const target = now + ms;
      for (;;) {
        const due = nextDue();
        if (due === undefined || due[1].due > target) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].due);
        due[1].fn();
      }
      now = target;
    },
    pending: () => timers.size,
    nextDueIn() {
      const due = nextDue();
      return due === undefined ? undefined : due[1].due - now;
    },
  };
}
