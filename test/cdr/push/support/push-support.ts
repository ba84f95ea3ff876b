// Helpers for the CDR push tests: an admin session cookie, a hand-driven clock, a logger that keeps
// what it was given, and polling for outcomes of real HTTP exchanges.

import { createSession, ensureAdmin, SESSION_COOKIE } from '../../../../src/auth/index.js';
import type { PushLogger } from '../../../../src/cdr/push/index.js';
import type { Clock } from '../../../../src/shared/clock.js';
import type { Store } from '../../../../src/store/index.js';

/** A clock that moves only when told. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

/** A manual clock starting at the given time. */
export function manualClock(startMs = Date.UTC(2026, 10, 22, 8, 0, 0)): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

/** The Cookie header of a fresh admin session. */
export async function adminCookie(store: Store, clock: Clock): Promise<string> {
  await ensureAdmin(store, 'admin-password-for-tests', clock.now());
  const { id } = await store.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  return `${SESSION_COOKIE}=${await createSession(store, id, clock)}`;
}

/** A logger that keeps every line as JSON text. */
export function captureLogger(): PushLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (obj: object, msg?: string) => {
    lines.push(JSON.stringify({ level, ...obj, msg }));
  };
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** Polls cond every 10 ms until it holds; fails naming `what` after timeoutMs. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
