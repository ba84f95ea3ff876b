// `branchgate backup FILE` (while the server runs) and `branchgate restore FILE` (into an empty
// data directory): a SQLite store's consistent copy, with a progress bar. PostgreSQL: pg_dump.
import type { Command } from 'commander';
import { addStoreOptions, type StoreFlags } from './store-options.js';

/** Adds the backup and restore commands. */
export function registerBackup(program: Command): void {
  addStoreOptions(
    program
      .command('backup <file>')
      .description('copy the SQLite store to FILE while the server runs (a consistent snapshot)'),
  ).action(async (file: string, o: StoreFlags) => {
    const { backupStore } = await import('../store/backup.js');
    const { createProgress } = await import('../shared/progress.js');
    const r = await backupStore(o, file, createProgress({ unit: 'pages' }));
    process.stdout.write(`${file}: ${r.records} records, ${r.pages} pages\n`);
  });

  program
    .command('restore <file>')
    .description('check a backup and put it in an empty data directory')
    .option('--data-dir <dir>', 'the (empty) data directory to restore into', 'data')
    .action(async (file: string, o: { dataDir: string }) => {
      const { restoreStore } = await import('../store/backup.js');
      const r = await restoreStore(file, o.dataDir);
      process.stdout.write(`restored ${file} into ${o.dataDir}: ${r.records} records\n`);
    });
}
