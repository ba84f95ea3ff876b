// Opens the store named by --db (a SQLite path or a postgres:// URL; default <data-dir>/branchgate.db)
// and brings its schema up to date. Migrations run under Kysely's migration lock, so several
// instances starting at once on one PostgreSQL database are safe.
import { join, resolve } from 'node:path';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { AppError } from '../shared/errors.js';
import { openPostgres } from './dialects/postgres.js';
import { openSqlite } from './dialects/sqlite.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';
import type { SqliteConnection, Store, StoreKind } from './store.js';

/** Errors opening or migrating the store. */
export class StoreError extends AppError<'store_unavailable' | 'migration_failed' | 'bad_db_url'> {}

/** Where the store is: --db if given, else the default file in the data directory. */
export interface StoreLocation {
  db?: string | undefined;
  dataDir?: string | undefined;
  /**
   * Run the migrations only up to and including this one (upgrade tests open a store as an
   * earlier release left it, write to it, then open it again normally). Default: every one.
   */
  migrateTo?: string | undefined;
}

/** The default data directory: ./data. */
export const DEFAULT_DATA_DIR = 'data';

/** Which kind of store a --db value names. */
export function storeKindOf(db: string): StoreKind {
  return /^postgres(ql)?:\/\//i.test(db) ? 'postgres' : 'sqlite';
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** Opens and migrates the store. */
export async function openStore(location: StoreLocation = {}): Promise<Store> {
  const target = location.db ?? join(resolve(location.dataDir ?? DEFAULT_DATA_DIR), 'branchgate.db');
  const kind = storeKindOf(target);
  let db: Kysely<Database>;
  let sqlite: SqliteConnection | undefined;
  try {
    if (kind === 'postgres') db = openPostgres(target);
    else ({ db, raw: sqlite } = openSqlite(target));
  } catch (err) {
    throw new StoreError(
      'store_unavailable',
      `cannot open the database ${redact(target)}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  const migrations: Record<string, Migration> = {};
  for (const m of MIGRATIONS) migrations[m.name] = { up: (k) => m.up(k, kind) };
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'branchgate_migration',
    migrationLockTableName: 'branchgate_migration_lock',
  });
  if (location.migrateTo !== undefined && !(location.migrateTo in migrations)) {
    await db.destroy();
    throw new StoreError('migration_failed', `migrateTo: there is no migration ${location.migrateTo}`);
  }
  const { error, results } = await (location.migrateTo === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(location.migrateTo));
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    const code = /ECONNREFUSED|ENOTFOUND|does not exist|authentication/i.test(reason)
      ? 'store_unavailable'
      : 'migration_failed';
    throw new StoreError(
      code,
      code === 'store_unavailable'
        ? `cannot reach the database ${redact(target)}: ${reason}`
        : `migration ${failed} failed on ${redact(target)}: ${reason}`,
      { cause: error },
    );
  }
  return { kind, db, sqlite, location: redact(target), close: () => db.destroy() };
}
