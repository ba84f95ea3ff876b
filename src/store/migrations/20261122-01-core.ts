// Core tables: CDR records, users, sessions, extensions, settings.

import type { StoreMigration } from './migration.js';

/** Creates the tables of the foundation. */
export const coreMigration: StoreMigration = {
  name: '20261122-01-core',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    // db_id is assigned by us (dense, commit order), never by a sequence: see cdr/record-store.ts.
    await db.schema
      .createTable('cdr')
      .addColumn('db_id', bigint, (c) => c.primaryKey())
      .addColumn('identity', 'text', (c) => c.notNull().unique())
      .addColumn('uniqueid', 'text', (c) => c.notNull())
      .addColumn('linkedid', 'text', (c) => c.notNull())
      .addColumn('sequence', 'integer')
      .addColumn('accountcode', 'text', (c) => c.notNull())
      .addColumn('clid', 'text', (c) => c.notNull())
      .addColumn('src', 'text', (c) => c.notNull())
      .addColumn('dst', 'text', (c) => c.notNull())
      .addColumn('dcontext', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('dstchannel', 'text', (c) => c.notNull())
      .addColumn('lastapp', 'text', (c) => c.notNull())
      .addColumn('lastdata', 'text', (c) => c.notNull())
      .addColumn('start_ts', bigint, (c) => c.notNull())
      .addColumn('answer_ts', bigint)
      .addColumn('end_ts', bigint, (c) => c.notNull())
      .addColumn('duration', 'integer', (c) => c.notNull())
      .addColumn('billsec', 'integer', (c) => c.notNull())
      .addColumn('disposition', 'text', (c) => c.notNull())
      .addColumn('amaflags', 'text', (c) => c.notNull())
      .addColumn('userfield', 'text', (c) => c.notNull())
      .addColumn('peeraccount', 'text', (c) => c.notNull())
      .addColumn('initial_destination', 'text', (c) => c.notNull())
      .addColumn('computed_destination', 'text', (c) => c.notNull())
      .addColumn('recording_url', 'text', (c) => c.notNull())
      .addColumn('created_at_ms', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cdr_linkedid').on('cdr').column('linkedid').execute();

    await db.schema
      .createTable('users')
      .addColumn('id', kind === 'postgres' ? 'serial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at_ms', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at_ms', bigint, (c) => c.notNull())
      .addColumn('expires_at_ms', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at_ms').execute();

    await db.schema
      .createTable('extensions')
      .addColumn('number', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('key_sha256', 'text', (c) => c.notNull())
      .addColumn('cdr_access', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at_ms', bigint, (c) => c.notNull())
      .addColumn('updated_at_ms', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at_ms', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('write_locks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('taken', bigint, (c) => c.notNull())
      .execute();
  },
};
