// Backup and restore of a SQLite store while the server runs. backupStore copies the open database
// with SQLite's online backup API (a consistent snapshot: records committed after it started are
// simply absent) into FILE.partial, then renames it, so a FILE that exists is always whole.
// restoreStore checks that a file is a sound branchgate store and copies it into an empty data
// directory. PostgreSQL stores are backed up with pg_dump (docs/deploy.md).
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { AppError } from '../shared/errors.js';
import type { Progress } from '../shared/progress.js';
import { DEFAULT_DATA_DIR, openStore } from './open-store.js';

/** Pages copied per backup step while the source is quiet. */
const STEP_PAGES = 2048;

/** Copies the store named by --db / --data-dir to `file`; returns its record count. */
export async function backupStore(
  location: { db?: string | undefined; dataDir?: string | undefined },
  file: string,
  progress?: Progress,
): Promise<{ records: number; pages: number }> {
  const store = await openStore(location);
  const partial = `${file}.partial`;
  try {
    if (!store.sqlite)
      throw new AppError(
        'bad_config',
        'the store is PostgreSQL: back it up with pg_dump, and restore with pg_restore (docs/deploy.md)',
      );
    let lastRemaining = Number.POSITIVE_INFINITY;
    let started = false;
    const result = await store.sqlite.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        if (!started) {
          progress?.start(totalPages, 'backup');
          started = true;
        }
        progress?.update(totalPages - remainingPages);
        // A write by another connection restarts the copy; under a steady writer (an import) the
        // rest is then copied in one step, which SQLite does under one read lock.
        const restarted = remainingPages > lastRemaining;
        lastRemaining = remainingPages;
        return restarted ? totalPages : STEP_PAGES;
      },
    });
    progress?.stop();
    const copy = new SqliteDatabase(partial, { readonly: true });
    let records: number;
    try {
      records = Number((copy.prepare('SELECT count(*) AS n FROM cdr').get() as { n: number }).n);
    } finally {
      copy.close();
    }
    await rename(partial, file);
    return { records, pages: result.totalPages };
  } catch (err) {
    progress?.stop();
    await rm(partial, { force: true });
    throw err;
  } finally {
    await store.close();
  }
}

/** Checks `file` is a sound branchgate store and copies it into `dataDir`, which must be empty. */
export async function restoreStore(
  file: string,
  dataDir: string = DEFAULT_DATA_DIR,
): Promise<{ records: number }> {
  const dir = resolve(dataDir);
  const present = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (present.length > 0)
    throw new AppError('bad_config', `${dir} is not empty: restore into an empty data directory`);
  let records: number;
  try {
    const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      const check = db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
      const tables = new Set(
        (
          db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
        ).map((r) => r.name),
      );
      for (const t of ['branchgate_migration', 'cdr', 'users'])
        if (!tables.has(t)) throw new Error(`no ${t} table: not a branchgate store`);
      records = Number((db.prepare('SELECT count(*) AS n FROM cdr').get() as { n: number }).n);
    } finally {
      db.close();
    }
  } catch (err) {
    throw new AppError('bad_backup', `${file}: ${(err as Error).message}`, { cause: err });
  }
  await mkdir(dir, { recursive: true });
  const target = join(dir, 'branchgate.db');
  await copyFile(file, `${target}.partial`);
  await rename(`${target}.partial`, target);
  // The next open migrates it if it came from an older release.
  const store = await openStore({ db: target });
  await store.close();
  return { records };
}
