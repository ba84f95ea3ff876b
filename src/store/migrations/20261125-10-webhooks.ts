// Webhooks: an event log written in the same transaction as what it reports (a message received,
// sent, delivered or failed; a modem state change), the webhooks subscribed to it, each with its
// own cursor over the log (delivered in log order, at least once), and a log of delivery attempts.
import type { StoreMigration } from './migration.js';

/** Creates events, webhooks and webhook_attempts. */
export const webhooksMigration: StoreMigration = {
  name: '20261125-10-webhooks',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    const id = (t: ReturnType<typeof db.schema.createTable>) =>
      t.addColumn('id', kind === 'postgres' ? 'bigserial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      );
    await id(db.schema.createTable('events'))
      .addColumn('type', 'text', (c) => c.notNull())
      // The event's data as JSON, snapshotted when it happened.
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_ms', bigint, (c) => c.notNull())
      .execute();
    await id(db.schema.createTable('webhooks'))
      .addColumn('url', 'text', (c) => c.notNull())
      // Space-separated event types.
      .addColumn('events', 'text', (c) => c.notNull())
      // whsec_ secrets: the current one and, during a rotation, the previous one (both sign).
      .addColumn('secret', 'text')
      .addColumn('previous_secret', 'text')
      .addColumn('created_ms', bigint, (c) => c.notNull())
      // The last event delivered or skipped; events up to it are done for this webhook.
      .addColumn('cursor', bigint, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_ms', bigint)
      .addColumn('failing_since_ms', bigint)
      .addColumn('last_error', 'text')
      .execute();
    await id(db.schema.createTable('webhook_attempts'))
      .addColumn('webhook_id', bigint, (c) => c.notNull())
      .addColumn('event_id', bigint, (c) => c.notNull())
      .addColumn('at_ms', bigint, (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_attempts_by_webhook')
      .on('webhook_attempts')
      .columns(['webhook_id', 'id'])
      .execute();
  },
};
