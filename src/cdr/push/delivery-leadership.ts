// Only one instance delivers at a time. PostgreSQL: a session-level advisory lock taken with
// pg_try_advisory_lock on one pool connection held for as long as this instance delivers; if the
// process or its connection dies, the server drops the lock with the session. SQLite (one host):
// a lease in cdr_push_state (owner, expiry by the injected clock, renewed every run), taken over
// when it expires or when its owner's process on this host is gone.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../shared/clock.js';
import type { Database, Store } from '../../store/index.js';

/** The right to deliver. acquire() takes it or confirms it is still held; release() gives it up. */
export interface DeliveryLeadership {
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

/** The advisory lock key (below 2^31, so pg_locks shows it as classid 0, objid KEY). */
export const ADVISORY_LOCK_KEY = 0x62674350;
/** How long a SQLite lease lasts without renewal. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** The leadership for a store: an advisory lock on PostgreSQL, a lease row on SQLite. */
export function createDeliveryLeadership(
  store: Store,
  clock: Clock,
  leaseTtlMs = DEFAULT_LEASE_TTL_MS,
): DeliveryLeadership {
  return store.kind === 'postgres'
    ? new AdvisoryLockLeadership(store)
    : new LeaseLeadership(store, clock, leaseTtlMs);
}

class AdvisoryLockLeadership implements DeliveryLeadership {
  private held: { db: Kysely<Database>; let_go: () => void; done: Promise<unknown> } | null = null;

  constructor(private readonly store: Store) {}

  async acquire(): Promise<boolean> {
    if (this.held) {
      if (await this.stillHeld(this.held.db)) return true;
      await this.release();
    }
    return new Promise<boolean>((resolve) => {
      const done = this.store.db
        .connection()
        .execute(async (db) => {
          const r = await sql<{
            locked: boolean;
          }>`select pg_try_advisory_lock(${ADVISORY_LOCK_KEY}) as locked`.execute(db);
          if (r.rows[0]?.locked !== true) return resolve(false);
          // Hold this connection (and so the lock) until release(); then unlock before the
          // connection goes back to the pool, where a session lock would otherwise linger.
          await new Promise<void>((let_go) => {
            this.held = { db, let_go, done };
            resolve(true);
          });
          await sql`select pg_advisory_unlock(${ADVISORY_LOCK_KEY})`.execute(db).catch(() => {});
        })
        .catch(() => resolve(false));
    });
  }

  private async stillHeld(db: Kysely<Database>): Promise<boolean> {
    try {
      const r = await sql<{ n: number }>`select count(*)::int as n from pg_locks
        where locktype = 'advisory' and pid = pg_backend_pid() and classid = 0
          and objid = ${ADVISORY_LOCK_KEY} and objsubid = 1 and granted`.execute(db);
      return (r.rows[0]?.n ?? 0) > 0;
    } catch {
      return false;
    }
  }

  async release(): Promise<void> {
    const held = this.held;
    if (!held) return;
    this.held = null;
    held.let_go();
    await held.done.catch(() => {});
  }
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

class LeaseLeadership implements DeliveryLeadership {
  private readonly host = hostname();
  private readonly owner = `${this.host}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async acquire(): Promise<boolean> {
    const now = this.clock.now();
    const row = await this.store.db
      .selectFrom('cdr_push_state')
      .select(['lease_owner', 'lease_expires_ms'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const other = row.lease_owner;
    if (other !== null && other !== this.owner && Number(row.lease_expires_ms ?? 0) >= now) {
      const parts = other.split(':');
      const host = parts.slice(0, -2).join(':');
      if (host !== this.host || !processGone(Number(parts.at(-2)))) return false;
    }
    const res = await this.store.db
      .updateTable('cdr_push_state')
      .set({ lease_owner: this.owner, lease_expires_ms: now + this.ttlMs })
      .where('id', '=', 1)
      .where((eb) => (other === null ? eb('lease_owner', 'is', null) : eb('lease_owner', '=', other)))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async release(): Promise<void> {
    await this.store.db
      .updateTable('cdr_push_state')
      .set({ lease_owner: null, lease_expires_ms: null })
      .where('id', '=', 1)
      .where('lease_owner', '=', this.owner)
      .execute();
  }
}
