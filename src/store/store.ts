// The Store handle every area receives: a Kysely instance, which database it is, and close().
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Which database engine backs the store. */
export type StoreKind = 'sqlite' | 'postgres';

/** An open, migrated store. */
export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /** Where the data lives, for messages (a file path, or a URL without its password). */
  readonly location: string;
  close(): Promise<void>;
}
