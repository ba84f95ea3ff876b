// The --data-dir / --db options every store command takes, and opening the store for one command.
import { type Command, Option } from 'commander';
import type { Store } from '../store/index.js';

/** The parsed store options. */
export interface StoreFlags {
  dataDir?: string;
  db?: string;
}

/** Adds --data-dir and --db (also from BRANCHGATE_DATA_DIR / BRANCHGATE_DB). */
export function addStoreOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--data-dir <dir>', 'data directory').env('BRANCHGATE_DATA_DIR').default('data'))
    .addOption(
      new Option(
        '--db <path-or-url>',
        'SQLite file or postgres:// URL (default <data-dir>/branchgate.db)',
      ).env('BRANCHGATE_DB'),
    );
}

/** Opens the store, runs fn, and closes the store whatever happens. */
export async function withStore<T>(flags: StoreFlags, fn: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../store/index.js');
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
