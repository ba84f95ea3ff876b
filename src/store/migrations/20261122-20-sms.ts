// SMS tables: messages (sent and received, ids from a sequence that never reuses a value), the
// modem references of sent parts (for delivery reports), received parts awaiting the rest of
// their message, and the PDUs already taken from the modem (so a restart never stores one twice).
import type { StoreMigration } from './migration.js';

/** Creates sms_message, sms_sent_part, sms_inbox_part and sms_inbox_seen. */
export const smsMigration: StoreMigration = {
  name: '20261122-20-sms',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    // AUTOINCREMENT (SQLite) and a sequence (PostgreSQL) never hand out a deleted row's id again.
    await db.schema
      .createTable('sms_message')
      .addColumn('id', kind === 'postgres' ? 'bigserial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('encoding', 'text', (c) => c.notNull())
      .addColumn('parts', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('incomplete', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message_ms', bigint, (c) => c.notNull())
      .addColumn('created_ms', bigint, (c) => c.notNull())
      .addColumn('parts_sent', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_ms', bigint)
      .addColumn('reference', 'integer')
      .execute();
    await db.schema.createIndex('sms_message_type').on('sms_message').columns(['type', 'id']).execute();
    await db.schema
      .createIndex('sms_message_due')
      .on('sms_message')
      .columns(['status', 'next_attempt_ms'])
      .execute();

    await db.schema
      .createTable('sms_sent_part')
      .addColumn('message_id', bigint, (c) => c.notNull().references('sms_message.id').onDelete('cascade'))
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('mr', 'integer', (c) => c.notNull())
      .addColumn('report', 'text')
      .addColumn('sent_ms', bigint, (c) => c.notNull())
      .addPrimaryKeyConstraint('sms_sent_part_pk', ['message_id', 'sequence'])
      .execute();
    await db.schema.createIndex('sms_sent_part_mr').on('sms_sent_part').column('mr').execute();

    await db.schema
      .createTable('sms_inbox_part')
      .addColumn('id', kind === 'postgres' ? 'bigserial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('group_key', 'text', (c) => c.notNull())
      .addColumn('group_id', 'text', (c) => c.notNull())
      .addColumn('sender', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('encoding', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('message_ms', bigint, (c) => c.notNull())
      .addColumn('stored_ms', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sms_inbox_part_key').on('sms_inbox_part').column('group_key').execute();
    await db.schema.createIndex('sms_inbox_part_group').on('sms_inbox_part').column('group_id').execute();

    await db.schema
      .createTable('sms_inbox_seen')
      .addColumn('pdu_sha256', 'text', (c) => c.primaryKey())
      .addColumn('seen_ms', bigint, (c) => c.notNull())
      .execute();
  },
};
