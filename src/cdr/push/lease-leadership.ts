// SQLite delivery leadership (one host): a lease in cdr_push_state (owner host:pid:random, expiry by
// the injected clock, renewed by every acquire()), taken over when it expires or at once when its
// owner's process on this host is gone. The cursor moves only with the lease owner's name on it.
// The lease is on row 1 and covers the cursors of every destination.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import type { DeliveryLeadership } from './delivery-leadership.js';
import { advanceCursor, type CursorExpectation } from './push-state.js';

/** How long a SQLite lease lasts without renewal. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The lease leadership over one SQLite store. */
export class LeaseLeadership implements DeliveryLeadership {
  private readonly host = hostname();
  private readonly owner = `${this.host}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private advanceStatement: Statement | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  private acquiring: Promise<boolean> | null = null;

  /** Several destination loops ask at once: they share one check (else all but one would lose). */
  acquire(): Promise<boolean> {
    this.acquiring ??= this.check().finally(() => {
      this.acquiring = null;
    });
    return this.acquiring;
  }

  private async check(): Promise<boolean> {
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

  advance(expected: CursorExpectation, to: number, atMs: number, destination = 1): Promise<boolean> {
    // The cursor moves once per acknowledged request: on the raw connection with a cached statement
    // when no Kysely transaction is open on it (a raw statement would otherwise join that
    // transaction), else through Kysely.
    const sqlite = this.store.sqlite;
    if (sqlite && !sqlite.inTransaction) {
      this.advanceStatement ??= sqlite.prepare(
        `UPDATE cdr_push_state SET acked_db_id = ?, failing_since_ms = NULL, last_success_ms = ?
         WHERE id = ? AND generation = ? AND acked_db_id = ?
           AND (SELECT lease_owner FROM cdr_push_state WHERE id = 1) = ?`,
      );
      const res = this.advanceStatement.run(
        to,
        atMs,
        destination,
        expected.generation,
        expected.from,
        this.owner,
      );
      return Promise.resolve(res.changes === 1);
    }
    return advanceCursor(this.store.db, expected, to, atMs, this.owner, destination);
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
