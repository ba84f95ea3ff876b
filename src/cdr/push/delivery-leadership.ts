// Only one instance delivers at a time: an advisory lock on PostgreSQL (advisory-lock-leadership.ts),
// a lease row on SQLite (lease-leadership.ts). Both also guard the cursor: only the holder moves it.
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { Store } from '../../store/index.js';
import { ADVISORY_LOCK_KEY, AdvisoryLockLeadership } from './advisory-lock-leadership.js';
import { DEFAULT_LEASE_TTL_MS, LeaseLeadership } from './lease-leadership.js';
import type { CursorExpectation } from './push-state.js';

export { ADVISORY_LOCK_KEY, DEFAULT_LEASE_TTL_MS };

/**
 * The right to deliver. acquire() takes it or confirms it is still held; release() gives it up;
 * advance() moves the delivery cursor only while it is held (false when it is not, or when the
 * cursor was moved by someone else).
 */
export interface DeliveryLeadership {
  acquire(): Promise<boolean>;
  release(): Promise<void>;
  /** Moves the cursor of `destination` (default 1); one right covers every destination. */
  advance(expected: CursorExpectation, to: number, atMs: number, destination?: number): Promise<boolean>;
}

/** Options of createDeliveryLeadership. */
export interface LeadershipOptions {
  /** SQLite lease length (default 30 s). */
  leaseTtlMs?: number | undefined;
  /** The postgres:// URL of the store: required on PostgreSQL, for the lock's own connection. */
  databaseUrl?: string | undefined;
}

/** The leadership for a store: an advisory lock on PostgreSQL, a lease row on SQLite. */
export function createDeliveryLeadership(
  store: Store,
  clock: Clock,
  options: LeadershipOptions = {},
): DeliveryLeadership {
  if (store.kind === 'sqlite')
    return new LeaseLeadership(store, clock, options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS);
  if (!options.databaseUrl) {
    throw new AppError(
      'store_unavailable',
      'CDR push on PostgreSQL needs the database URL for its advisory lock',
    );
  }
  return new AdvisoryLockLeadership(options.databaseUrl);
}
