// Every migration, in run order. Areas append theirs here (one line each).
import { coreMigration } from './20261122-01-core.js';
import type { StoreMigration } from './migration.js';

/** All migrations the store runs on open, oldest first. */
export const MIGRATIONS: readonly StoreMigration[] = [coreMigration];
