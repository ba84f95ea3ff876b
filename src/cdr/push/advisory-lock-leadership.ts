// PostgreSQL delivery leadership: a session-level advisory lock taken with pg_try_advisory_lock on
// a connection of its own (not from the pool, where pg leaves a dropped idle client's error
// unhandled), held while this instance delivers. When the process or connection dies, the server
// drops the lock with the session and another instance takes it on its next try.
import pg from 'pg';
import type { DeliveryLeadership } from './delivery-leadership.js';
import type { CursorExpectation } from './push-state.js';

/** The advisory lock key (below 2^31, so pg_locks shows it as classid 0, objid KEY). */
export const ADVISORY_LOCK_KEY = 0x62674350;

/** The advisory-lock leadership over one postgres:// URL. */
export class AdvisoryLockLeadership implements DeliveryLeadership {
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
      client.end().catch(() => {
        // ending a connection that already failed: nothing left to end
      });
    });
    await client.connect();
    // Cursor updates on this session skip the WAL flush wait (see advance()).
    await client.query('set synchronous_commit = off');
    this.client = client;
    return client;
  }

  private acquiring: Promise<boolean> | null = null;

  /** Several destination loops ask at once: they share one check, on one connection. */
  acquire(): Promise<boolean> {
    this.acquiring ??= this.check().finally(() => {
      this.acquiring = null;
    });
    return this.acquiring;
  }

  private async check(): Promise<boolean> {
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
  async advance(expected: CursorExpectation, to: number, atMs: number, destination = 1): Promise<boolean> {
    const client = this.client;
    if (!client || !this.holding) return false;
    const r = await client.query({
      name: 'cdr_push_advance',
      text: `update cdr_push_state set acked_db_id = $1, failing_since_ms = null, last_success_ms = $2
        where id = $5 and generation = $3 and acked_db_id = $4`,
      values: [to, atMs, expected.generation, expected.from, destination],
    });
    return r.rowCount === 1;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.holding = false;
    await client?.end().catch(() => {
      // ending a connection that already failed: nothing left to end
    });
  }

  async release(): Promise<void> {
    // Ending the session releases its locks; the connection is ours alone, never pooled.
    await this.drop();
  }
}
