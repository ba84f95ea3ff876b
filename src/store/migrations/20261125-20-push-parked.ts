// Poison records (CDR push): the state row counts how often the record at the cursor was refused
// with the same 4xx (poison_db_id, poison_status, poison_count), and cdr_push_parked holds the
// records set aside under the `park` policy until they are resent. destination_id is 1, the
// seed's CDR API section, until several destinations exist.
import type { StoreMigration } from './migration.js';

/** Adds the poison counter to cdr_push_state and creates cdr_push_parked. */
export const pushParkedMigration: StoreMigration = {
  name: '20261125-20-push-parked',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('cdr_push_state').addColumn('poison_db_id', bigint).execute();
    await db.schema.alterTable('cdr_push_state').addColumn('poison_status', 'integer').execute();
    await db.schema
      .alterTable('cdr_push_state')
      .addColumn('poison_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('cdr_push_parked')
      .addColumn('destination_id', 'integer', (c) => c.notNull())
      .addColumn('db_id', bigint, (c) => c.notNull())
      .addColumn('parked_at_ms', bigint, (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('error', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('cdr_push_parked_pk', ['destination_id', 'db_id'])
      .execute();
  },
};
