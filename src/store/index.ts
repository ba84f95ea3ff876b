// The store area: open a migrated database (SQLite or PostgreSQL) and its table types.
export { DEFAULT_DATA_DIR, openStore, StoreError, type StoreLocation, storeKindOf } from './open-store.js';
export type * from './schema.js';
export type { SqliteConnection, Store, StoreKind } from './store.js';
export { withWriteLock } from './write-lock.js';
