// `branchgate backup` taken while `branchgate cdr import` is writing, then `branchgate restore`
// into an empty data directory and `serve` on it: every record of the backup pulls, dense from
// db_id 1, and the import's later records are simply absent. Bad restores change nothing.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { MASTER_LINES } from '../cdr/ingest/support/capture.js';
import { available, createTestDatabase } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { BIN, spawnServe } from '../support/serve-process.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'bg-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COPIES = 8000; // 224,000 lines: an import of several seconds
const count = (file: string) => {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM cdr').get() as { n: number }).n);
  } finally {
    db.close();
  }
};

test('a backup during an import restores to a consistent store whose every record pulls', async () => {
  const csv = join(dir, 'Master.csv');
  const lines: string[] = [];
  for (let k = 0; k < COPIES; k++)
    for (const l of MASTER_LINES) lines.push(l.replace(/"(\d{10}\.\d+)","([^"]*)"$/, `"$1-${k}","$2"`));
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const dataDir = join(dir, 'live');
  const db = join(dataDir, 'branchgate.db');
  await run(process.execPath, [BIN, 'user', 'list', '--data-dir', dataDir]); // creates and migrates the store
  const importing = spawn(process.execPath, [BIN, 'cdr', 'import', csv, '--data-dir', dataDir], {
    stdio: 'ignore',
  });
  const done = new Promise<number | null>((r) => importing.once('exit', r));
  for (let i = 0; i < 400 && count(db) === 0; i++) await new Promise((r) => setTimeout(r, 25));
  expect(count(db)).toBeGreaterThan(0);

  const backup = join(dir, 'backup.db');
  const taken = await run(process.execPath, [BIN, 'backup', backup, '--data-dir', dataDir]);
  const m = /: (\d+) records, \d+ pages\n$/.exec(taken.stdout);
  const inBackup = Number(m?.[1]);
  expect(await done).toBe(0);
  const total = count(db);
  expect(total).toBe(COPIES * MASTER_LINES.length);
  expect(inBackup).toBeGreaterThan(0);
  expect(inBackup).toBeLessThan(total);
  expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);

  const restoredDir = join(dir, 'restored');
  const restored = await run(process.execPath, [BIN, 'restore', backup, '--data-dir', restoredDir]);
  expect(restored.stdout).toBe(`restored ${backup} into ${restoredDir}: ${inBackup} records\n`);
  await run(process.execPath, [
    BIN,
    'extension',
    'add',
    '1001',
    '--secret',
    's3cret',
    '--cdr-access',
    '--data-dir',
    restoredDir,
  ]);
  const server = await spawnServe(['--data-dir', restoredDir, '--listen', '127.0.0.1:0'], {
    env: { BRANCHGATE_ADMIN_PASSWORD: 'restored admin' },
  });
  try {
    const auth = `Basic ${Buffer.from(`1001:${(await import('node:crypto')).createHash('sha256').update('s3cret').digest('hex')}`).toString('base64')}`;
    const first = (
      await send(`${server.url}/pbx/cdr/data?page=1&limit=1000`, { headers: { authorization: auth } })
    ).json();
    expect(first.total_pages).toBe(Math.ceil(inBackup / 1000));
    const lastPage = (
      await send(`${server.url}/pbx/cdr/data?page=${first.total_pages}&limit=1000`, {
        headers: { authorization: auth },
      })
    ).json();
    const ids = [...first.data, ...lastPage.data].map((r: { db_id: number }) => r.db_id);
    expect(ids[0]).toBe(1);
    expect(ids.at(-1)).toBe(inBackup);
  } finally {
    await server.stop();
  }
}, 180_000);

test('restore refuses a non-empty directory and a file that is not a store, changing nothing', async () => {
  const notEmpty = mkdtempSync(join(dir, 'full-'));
  writeFileSync(join(notEmpty, 'keep.txt'), 'x');
  const junk = join(dir, 'junk.db');
  writeFileSync(junk, 'not a database at all');
  const fails = (...args: string[]) =>
    run(process.execPath, [BIN, ...args]).then(
      () => '',
      (e: { stderr: string }) => e.stderr,
    );
  expect(await fails('restore', junk, '--data-dir', notEmpty)).toContain('is not empty');
  const empty = join(dir, 'empty');
  expect(await fails('restore', junk, '--data-dir', empty)).toContain(`${junk}: `);
  expect(readdirSync(notEmpty)).toEqual(['keep.txt']);
  expect(() => readdirSync(empty)).toThrow();
});

test.skipIf(!available('postgres'))('backup of a PostgreSQL store says to use pg_dump', async () => {
  const pg = await createTestDatabase('postgres');
  try {
    const err = await run(process.execPath, [BIN, 'backup', join(dir, 'pg.db'), '--db', pg.url]).catch(
      (e: { stderr: string }) => e.stderr,
    );
    expect(err).toContain('back it up with pg_dump');
  } finally {
    await pg.drop();
  }
});
