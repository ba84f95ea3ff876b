// A sent message keeps the destination as the user typed it beside the normalised number that was
// sent (send-one normalises `to`: docs/sms.md). Older rows have none (null).
import type { StoreMigration } from './migration.js';

/** Adds sms_message.number_typed. */
export const smsNumberTypedMigration: StoreMigration = {
  name: '20261125-00-sms-number-typed',
  async up(db) {
    await db.schema.alterTable('sms_message').addColumn('number_typed', 'text').execute();
  },
};
