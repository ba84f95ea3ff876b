// SQLite dialect: better-sqlite3 in WAL mode with a busy timeout, so the CLI can write while the
// server runs. Parent directories are created on first open.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';

/** Opens (creating when absent) a SQLite database file: the Kysely instance and its one raw connection. */
export function openSqlite(file: string): { db: Kysely<Database>; raw: SqliteDatabase.Database } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), raw: sqlite };
}
