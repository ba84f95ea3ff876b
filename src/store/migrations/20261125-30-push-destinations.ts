// Several CDR push destinations. Destination 1 is the seed's CDR API section and keeps its
// settings key ("cdr_push") and its state row (id 1), so an upgraded store goes on from the same
// cursor: nothing resent, nothing skipped. Every further destination gets a state row with its
// own id (cursor, generation, failing-since, poison count) and settings under "cdr_push.<id>";
// the delivery log says which destination each attempt was for. The SQLite delivery lease stays
// on row 1 and covers every destination.
import type { StoreMigration } from './migration.js';

/** Adds cdr_push_log.destination_id (1 for every attempt logged before). */
export const pushDestinationsMigration: StoreMigration = {
  name: '20261125-30-push-destinations',
  async up(db) {
    await db.schema
      .alterTable('cdr_push_log')
      .addColumn('destination_id', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('cdr_push_log_destination')
      .on('cdr_push_log')
      .columns(['destination_id', 'id'])
      .execute();
  },
};
