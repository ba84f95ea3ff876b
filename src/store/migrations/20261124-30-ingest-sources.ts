// Live CDR sources added at run time (POST /api/ingest/sources, `branchgate ingest add`), started
// with the server beside those given by serve flags. The spec is the flag's value as given: an AMI
// source's keeps the manager secret (needed to log in); it is never shown back.
import type { StoreMigration } from './migration.js';

/** Creates ingest_sources. */
export const ingestSourcesMigration: StoreMigration = {
  name: '20261124-30-ingest-sources',
  async up(db, kind) {
    await db.schema
      .createTable('ingest_sources')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('spec', 'text', (c) => c.notNull())
      .addColumn('created_at_ms', kind === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
  },
};
