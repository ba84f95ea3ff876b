// Only one instance delivers at a time. PostgreSQL: a session-level advisory lock taken with
// pg_try_advisory_lock on a connection of its own (not from the pool), held for as long as this
// instance delivers; if the process or its connection dies, the server drops the lock with the
// session, and another instance takes it on its next try. SQLite (one host):
// a lease in cdr_push_state (owner, expiry by the injected clock, renewed every run), taken over
// when it expires or when its owner's process on this host is gone.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { Store } from '../../store/index.js';
import { advanceCursor, type CursorExpectation } from './push-state.js';

/**
 * The right to deliver. acquire() takes it or confirms it is still held; release() gives it up;
 * advance() moves the delivery cursor only while it is held (false when it is not, or when the
 * cursor was moved by someone else).
 */
export interface DeliveryLeadership {
  acquire(): Promise<boolean>;
  release(): Promise<void>;
  advance(expected: CursorExpectation, to: number, atMs: number): Promise<boolean>;
}

/** The advisory lock key (below 2^31, so pg_locks shows it as classid 0, objid KEY). */
export const ADVISORY_LOCK_KEY = 0x62674350;
/** How long a SQLite lease lasts without renewal. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

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

class AdvisoryLockLeadership implements DeliveryLeadership {
  private client: pg.Client | null = null;
  private holding = false;

  constructor(private readonly url: string) {}

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    // A dropped connection takes its session lock with it; the next acquire() notices.
    client.on('error', () => {
      if (this.client === client) {
        this.client = null;
        this.holding = false;
      }
      client.end().catch(() => {});
    });
    await client.connect();
    // Cursor updates on this session skip the WAL flush wait (see advance()).
    await client.query('set synchronous_commit = off');
    this.client = client;
    return client;
  }

  async acquire(): Promise<boolean> {
    try {
      const client = await this.connection();
      if (this.holding) {
        const r = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()
             and classid = 0 and objid = $1 and objsubid = 1 and granted`,
          [ADVISORY_LOCK_KEY],
        );
        this.holding = (r.rows[0]?.n ?? 0) > 0;
        if (this.holding) return true;
      }
      const r = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
        ADVISORY_LOCK_KEY,
      ]);
      this.holding = r.rows[0]?.locked === true;
      return this.holding;
    } catch {
      await this.drop();
      return false;
    }
  }

  /**
   * Moves the cursor on the lock's own session, so only the holder can. synchronous_commit is off
   * here: the update is committed and seen at once, and survives our process dying; only a crash
   * of the PostgreSQL server itself within ~0.6 s could forget it, which resends those records.
   */
  async advance(expected: CursorExpectation, to: number, atMs: number): Promise<boolean> {
    const client = this.client;
    if (!client || !this.holding) return false;
    const r = await client.query({
      name: 'cdr_push_advance',
      text: `update cdr_push_state set acked_db_id = $1, failing_since_ms = null, last_success_ms = $2
        where id = 1 and generation = $3 and acked_db_id = $4`,
      values: [to, atMs, expected.generation, expected.from],
    });
    return r.rowCount === 1;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.holding = false;
    await client?.end().catch(() => {});
  }

  async release(): Promise<void> {
    // Ending the session releases its locks; the connection is ours alone, never pooled.
    await this.drop();
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

  advance(expected: CursorExpectation, to: number, atMs: number): Promise<boolean> {
    return advanceCursor(this.store.db, expected, to, atMs, this.owner);
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
