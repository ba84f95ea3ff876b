// API tokens: named bearer credentials with scopes, for scripts and exchanges that cannot hold a
// console session. Only the SHA-256 of a token is stored; the token itself is shown once.
import type { StoreMigration } from './migration.js';

/** Creates api_tokens. */
export const apiTokensMigration: StoreMigration = {
  name: '20261124-00-api-tokens',
  async up(db, kind) {
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', kind === 'postgres' ? 'serial' : 'integer', (c) =>
        kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
      // The token's first characters, so an operator can tell tokens apart in a list.
      .addColumn('prefix', 'text', (c) => c.notNull())
      // Space-separated scope names.
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at_ms', bigint, (c) => c.notNull())
      .addColumn('last_used_ms', bigint)
      .addColumn('revoked_at_ms', bigint)
      .execute();
  },
};
