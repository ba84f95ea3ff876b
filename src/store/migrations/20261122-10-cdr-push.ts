// CDR push tables: the delivery state (one row: acknowledged cursor, replay generation, failing-since,
// the SQLite delivery lease) and the delivery log (one row per attempt).
import type { StoreMigration } from './migration.js';

/** Creates cdr_push_state (with its single row) and cdr_push_log. */
export const cdrPushMigration: StoreMigration = {
  name: '20261122-10-cdr-push',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('cdr_push_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      // null until the job is first enabled: then the newest db_id, or 0 with send_history.
      .addColumn('acked_db_id', bigint)
      .addColumn('generation', bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since_ms', bigint)
      .addColumn('last_success_ms', bigint)
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_ms', bigint)
      .execute();
    await db.insertInto('cdr_push_state').values({ id: 1, generation: 0 }).execute();

    await db.schema
      .createTable('cdr_push_log')
      .addColumn('id', kind === 'postgres' ? 'bigserial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('at_ms', bigint, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('first_db_id', bigint)
      .addColumn('last_db_id', bigint)
      .addColumn('records', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull())
      .execute();
  },
};
