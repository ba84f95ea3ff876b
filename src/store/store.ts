// The Store handle every area receives: a Kysely instance, which database it is, and close().
import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Which database engine backs the store. */
export type StoreKind = 'sqlite' | 'postgres';

/** The raw better-sqlite3 connection under a SQLite store. */
export type SqliteConnection = SqliteDatabase.Database;

/** An open, migrated store. */
export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /**
   * SQLite only: the one connection Kysely itself uses, for hot paths that need a cached prepared
   * statement (bulk CDR insert). Use it only inside a Kysely transaction, which holds the connection.
   */
  readonly sqlite?: SqliteConnection | undefined;
  /** Where the data lives, for messages (a file path, or a URL without its password). */
  readonly location: string;
  close(): Promise<void>;
}
