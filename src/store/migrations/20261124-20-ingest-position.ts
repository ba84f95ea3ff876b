// Where each live CDR source (Master.csv follower, CDR table poller) has read up to, so a restart
// resumes there. Written in the same transaction as the records it covers (see
// src/cdr/ingest/live/ingest-position.ts).
import type { StoreMigration } from './migration.js';

/** Creates ingest_position. */
export const ingestPositionMigration: StoreMigration = {
  name: '20261124-20-ingest-position',
  async up(db, kind) {
    await db.schema
      .createTable('ingest_position')
      // The source's id, e.g. `csv:/var/log/asterisk/cdr-csv/Master.csv`.
      .addColumn('source', 'text', (c) => c.primaryKey())
      // JSON: the source's own position shape.
      .addColumn('position', 'text', (c) => c.notNull())
      .addColumn('updated_at_ms', kind === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
  },
};
