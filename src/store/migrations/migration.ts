// The shape of one migration: a stable name (sorted order is run order) and an up step that may
// differ by dialect where SQL does (identity columns, booleans).
import type { Kysely } from 'kysely';
import type { StoreKind } from '../store.js';

/** One schema change. Names sort in run order: `YYYYMMDD-NN-area-what`. */
export interface StoreMigration {
  readonly name: string;
  /** Migrations run against the schema as it was then, not as typed now: the database is untyped here. */
  up(db: Kysely<Record<string, never>>, kind: StoreKind): Promise<void>;
}
